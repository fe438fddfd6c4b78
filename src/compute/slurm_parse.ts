import { isJobId, type LiveJob } from "./compute.ts";

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

/** The squeue output format `parseActiveJobs` reads: id, state, reason, partition, script, name. */
export const ACTIVE_JOBS_FORMAT = ["%i", "%T", "%r", "%P", "%o", "%j"].join(FIELD);

/** `squeue -o ACTIVE_JOBS_FORMAT` lines → name → live jobs in listed order. */
export function parseActiveJobs(stdout: string): Map<string, LiveJob[]> {
  const jobs = new Map<string, LiveJob[]>();
  for (const line of stdout.split("\n")) {
    const [id = "", state = "", reason = "", partition = "", command = "", ...rest] = line.split(FIELD);
    if (!isJobId(id) || rest.length === 0) continue;
    const name = rest.join(FIELD);
    // squeue prints `(null)` for a job submitted with --wrap
    const script = command === "(null)" ? "" : command;
    const job = { id, name, state, reason, partition, script };
    jobs.set(name, [...(jobs.get(name) ?? []), job]);
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

/** The squeue output format `parseSubmitted` reads: the id and the submit time. */
export const SUBMITTED_SQUEUE_FORMAT = "%i|%V";
/** The sacct fields `parseSubmitted` reads. */
export const SUBMITTED_SACCT_FIELDS = "JobID,Submit";

/**
 * `ID|YYYY-MM-DDTHH:MM:SS` lines (squeue `%i|%V`, sacct `JobID,Submit`) →
 * the ids submitted at or after `since`. Times are the scheduler's local time,
 * read in ours (the scheduler commands get our TZ). A line whose time cannot
 * be read counts as recent: when in doubt, a job is ours.
 */
export function parseSubmitted(stdout: string, since: Date): string[] {
  const ids: string[] = [];
  for (const raw of stdout.split("\n")) {
    const [id = "", when = ""] = raw.trim().split("|");
    if (!isJobId(id)) continue;
    const t = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(when.trim()) ? new Date(when.trim()).getTime() : NaN;
    if (Number.isNaN(t) || t >= Math.floor(since.getTime() / 1000) * 1000) ids.push(id);
  }
  return ids;
}
