import { isJobId, isTaskId, type LiveJob } from "./compute.ts";
import { expandIndices, splitRef, taskRef } from "./array.ts";
import { SlurmQueryError } from "./errors.ts";

/** Pure parsers of scheduler output, exported for tests on string fixtures. */

/** The first line, trimmed; "" for empty output. */
export function firstLine(text: string): string {
  const t = text.trim();
  return t ? (t.split("\n")[0] ?? "").trim() : "";
}

/** The id in `sbatch --parsable` output (`ID` or `ID;cluster`), or null when it is not numeric. */
export function parseSbatchId(stdout: string): string | null {
  const id = (stdout.trim().split(";")[0] ?? "").trim();
  return isJobId(id) ? id : null;
}

/**
 * The field separator of `ACTIVE_JOBS_FORMAT`: the ASCII unit separator, which
 * neither a job name nor a script path (both of which may hold a `|`) carries.
 */
const FIELD = "\x1f";

/**
 * The squeue output format `parseActiveJobs` reads: id, state, reason,
 * partition, script, name. Asked with `-r` (one row per array task, `%i`
 * being its `A_T`) and `SLURM_BITSTR_LEN=0` (no collapsed id cut short).
 */
export const ACTIVE_JOBS_FORMAT = ["%i", "%T", "%r", "%P", "%o", "%j"].join(FIELD);

/**
 * `squeue -o ACTIVE_JOBS_FORMAT` lines → name → live jobs and array tasks in
 * listed order. A plain job's row is its id; an array task's is `A_T`. A
 * collapsed row of pending tasks (`A_[2-5%2]`: squeue without `-r`, or a
 * site's wrapper) is read as one job per task. A collapsed row cut short
 * (`A_[1,4,9,…` without `]`: `SLURM_BITSTR_LEN` unset) cannot say which
 * tasks are live: SlurmQueryError, as a listing that could not be read.
 */
export function parseActiveJobs(stdout: string): Map<string, LiveJob[]> {
  const jobs = new Map<string, LiveJob[]>();
  for (const line of stdout.split("\n")) {
    const [id = "", state = "", reason = "", partition = "", command = "", ...rest] = line.split(FIELD);
    if (rest.length === 0) continue;
    const name = rest.join(FIELD);
    // squeue prints `(null)` for a job submitted with --wrap
    const script = command === "(null)" ? "" : command;
    const add = (jobId: string, arrayId: string | null, taskId: number | null) => {
      const job = { id: jobId, arrayId, taskId, name, state, reason, partition, script };
      // pushed, not copied: an array of a thousand tasks lists one name a thousand times
      const same = jobs.get(name);
      if (same === undefined) jobs.set(name, [job]);
      else same.push(job);
    };
    if (isJobId(id)) add(id, null, null);
    else if (isTaskId(id)) {
      const { jobId, task } = splitRef(id);
      add(id, jobId, task);
    } else {
      const m = /^([0-9]+)_\[(.*)$/.exec(id);
      if (!m) continue;
      const indices = m[2]!.endsWith("]") ? expandIndices(m[2]!.slice(0, -1)) : null;
      if (indices === null) {
        throw new SlurmQueryError(
          `squeue listed array ${m[1]}'s tasks as ${JSON.stringify(id)}, which does not say which tasks ` +
            "are live (cut short? SLURM_BITSTR_LEN=0 keeps it whole)",
        );
      }
      for (const t of indices) add(taskRef(m[1]!, t), m[1]!, t);
    }
  }
  return jobs;
}

/** `sacct -o JobID,State --parsable2` lines → id → state (the first record per id). */
export function parseStates(stdout: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const raw of stdout.split("\n")) {
    const [id, state] = raw.trim().split("|");
    if (!id || !state || states.has(id)) continue;
    states.set(id, state.trim());
  }
  return states;
}

/** `sacct -D -o JobID,State --parsable2` lines → id → how many of its rows are REQUEUED (ids without one absent). */
export function parseRequeues(stdout: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of stdout.split("\n")) {
    const [id, state] = raw.trim().split("|");
    if (id && state?.trim().startsWith("REQUEUED")) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The squeue output format `parseSubmitted` reads: the id and the submit time. */
export const SUBMITTED_SQUEUE_FORMAT = "%i|%V";
/** The sacct fields `parseSubmitted` reads. */
export const SUBMITTED_SACCT_FIELDS = "JobID,Submit";

/**
 * `ID|YYYY-MM-DDTHH:MM:SS` lines (squeue `%i|%V`, sacct `JobID,Submit`) →
 * the ids submitted at or after `since`, an array's once by its array id
 * (its rows read `A_T`, or `A_[2-5%2]` for its pending tasks). Times are the
 * scheduler's local time, read in ours (the scheduler commands get our TZ).
 * A line whose time cannot be read counts as recent: when in doubt, a job
 * is ours.
 */
export function parseSubmitted(stdout: string, since: Date): string[] {
  const ids: string[] = [];
  for (const raw of stdout.split("\n")) {
    const [ref = "", when = ""] = raw.trim().split("|");
    const id = /^([0-9]+)(?:_.*)?$/.exec(ref)?.[1];
    if (id === undefined || ids.includes(id)) continue;
    const t = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(when.trim()) ? new Date(when.trim()).getTime() : NaN;
    if (Number.isNaN(t) || t >= Math.floor(since.getTime() / 1000) * 1000) ids.push(id);
  }
  return ids;
}
