import type { Compute } from "../compute/compute.ts";
import { isJobRef } from "../compute/compute.ts";
import { isTerminal } from "../compute/states.ts";
import type { JobUsage } from "../compute/usage.ts";
import { log } from "../log.ts";
import { raiseEvalMinutes } from "../measure/notes.ts";
import { formatDuration } from "../text/duration.ts";

/**
 * Resource use of a run's finished measures: gathered with ONE accounting
 * query per pass (`Compute.usage`), kept in `decision.json` under `usage`
 * (snake_case, every figure null when unknown), and printed by `show`.
 */

/** sacct's `-S` bound sits this far before the run's creation, for clock skew. */
const SINCE_MARGIN_MS = 10 * 60_000;

/** One measure's finished job: its name and the id recorded at dispatch. */
export interface MeasureJob {
  readonly name: string;
  readonly jobId: string;
}

/**
 * The usage of each measure's job, by measure name, from one query bounded
 * by the run's creation: a job of its own, an array task (`A_T`: its own
 * sacct row and `.batch` step), or a pair job — whose measures (same-job:
 * one after the other; duet: two at a time) all ran in one job, so each
 * gets that one job's row, the figures of every measure of it together
 * (`sharedJobs` says which). Only finished jobs count (a job sacct still
 * shows running has no final figures yet); a failed query is logged and
 * gives {}: resource use is for people, never a reason to fail a pass.
 */
export async function measureUsage(
  compute: Compute,
  jobs: readonly MeasureJob[],
  createdAt: string,
): Promise<Record<string, JobUsage>> {
  const known = jobs.filter((j) => isJobRef(j.jobId));
  if (known.length === 0) return {};
  const created = Date.parse(createdAt);
  const since = Number.isNaN(created) ? undefined : new Date(created - SINCE_MARGIN_MS);
  let usages: Map<string, JobUsage>;
  try {
    usages = await compute.usage([...new Set(known.map((j) => j.jobId))], since);
  } catch (err) {
    log.info(`resource use unknown: ${(err as Error).message}`);
    return {};
  }
  const out: Record<string, JobUsage> = {};
  for (const j of known) {
    const u = usages.get(j.jobId);
    if (u !== undefined && (u.state === "" || isTerminal(u.state))) out[j.name] = u;
  }
  return out;
}

/**
 * The jobs that ran more than one measure (a pair job), each with its
 * measures in `usage`'s order: their rows are one job's, not each measure's.
 */
export function sharedJobs(usage: Readonly<Record<string, JobUsage>>): Map<string, string[]> {
  const byJob = new Map<string, string[]>();
  for (const [name, u] of Object.entries(usage)) byJob.set(u.jobId, [...(byJob.get(u.jobId) ?? []), name]);
  return new Map([...byJob].filter(([, names]) => names.length > 1));
}

/** A line for each pair job of `usage` (`sharedJobs`), to print under its resource table. */
export function sharedJobNotes(usage: Readonly<Record<string, JobUsage>>): string[] {
  return [...sharedJobs(usage)].map(([job, names]) =>
    `${names.join(", ")} ran in one job (${job}): each row is that job's use, all ${names.length} measures together`
  );
}

/**
 * A warning sentence for the verdict's reasons for each measure whose job
 * delivered its result yet ended TIMEOUT: Slurm checks limits only every 30 s
 * or so, so a command that finished just past its walltime (71 s of 60) is
 * marked TIMEOUT without being killed. Its value counts, but the next,
 * slightly slower run will be killed: the sentence names the measure, its
 * elapsed time against the limit and the key to raise.
 */
export function timeoutWarnings(usage: Readonly<Record<string, JobUsage>>, evalMinutes: number): string[] {
  return Object.entries(usage)
    .filter(([, u]) => u.state.startsWith("TIMEOUT"))
    .map(([name, u]) => {
      const ran = u.elapsedS === null ? "" : ` ran ${formatDuration(u.elapsedS)}`;
      const limit = u.timelimitS === null ? "its walltime" : `its ${formatDuration(u.timelimitS)} walltime`;
      return `Warning: measure ${JSON.stringify(name)} (job ${u.jobId})${ran} of ${limit} and Slurm marked it ` +
        `${u.state}; its command finished before the kill, so the result counts, but a slower run will be killed: ` +
        `${raiseEvalMinutes(evalMinutes)}.`;
    });
}
