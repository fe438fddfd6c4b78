import type { LiveJob } from "../compute/compute.ts";
import type { ComputeMode } from "../compute/mode.ts";
import type { RunSummary } from "../report/model.ts";
import { RunDir } from "../rundir/run_dir.ts";
import { readRunRecord } from "../rundir/run_record.ts";
import { liveJobsOf, runJobNames } from "../plan/run_jobs.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { wakeJobName } from "../rundir/wake_record.ts";

/**
 * What one queue listing says of an open run on a scheduler: whether any of
 * its jobs is live (its evals, its arrays, its wake — a job counts only when
 * its script lies in the run dir), and whether its wake is. A parked run
 * whose jobs run but whose wake is gone (scancelled by hand, lost with its
 * node) is never resumed when they end: `show` and `runs --live` say so, and
 * that `outerloop resume` re-arms it.
 */
export interface RunLiveness {
  /** Some job of the run is queued or running. */
  readonly jobs: boolean;
  /** Its wake job is queued or running. */
  readonly wake: boolean;
}

/** The run's liveness in `listing`. */
export function livenessOf(listing: ReadonlyMap<string, readonly LiveJob[]>, dir: RunDir, r: RunRecord): RunLiveness {
  const live = liveJobsOf(listing, runJobNames(dir, r), dir);
  const wake = wakeJobName(r.runTag, dir);
  return { jobs: live.length > 0, wake: live.some((j) => j.name === wake) };
}

/** The warning for a parked run with no live wake: what happens, and how to re-arm it. */
export function noWakeWarning(dir: RunDir, jobsLive: boolean): string {
  const what = jobsLive
    ? "its jobs run, but nothing will resume the run when they end"
    : "nothing of it is queued or running";
  return `no wake job is queued or running for this parked run: ${what}; "outerloop resume ${dir.path}" re-arms ` +
    `it (or "outerloop wait ${dir.path}" carries it on)`;
}

/**
 * A climb's open runs with `live` and `wakeLive` set from ONE queue listing
 * per backend (a climb is on one): an open run is live when the listing
 * shows any of its jobs. When a listing fails, liveness stays unknown and
 * `error` says why (the table still prints; `runs` exits 4).
 */
export async function climbLiveness(
  runs: readonly RunSummary[],
  listingOf: (mode: ComputeMode, cluster: string) => Promise<ReadonlyMap<string, readonly LiveJob[]>>,
): Promise<{ readonly runs: RunSummary[]; readonly error: string | null }> {
  // one listing per backend and cluster the climb's runs went to
  const listings = new Map<string, Promise<ReadonlyMap<string, readonly LiveJob[]>>>();
  let error: string | null = null;
  const out: RunSummary[] = [];
  for (const run of runs) {
    if (run.state !== "parked") {
      out.push(run);
      continue;
    }
    const dir = new RunDir(run.runDir);
    const record = readRunRecord(dir);
    const where = `${record.compute} ${record.cluster}`;
    if (!listings.has(where)) listings.set(where, listingOf(record.compute, record.cluster));
    try {
      const live = livenessOf(await listings.get(where)!, dir, record);
      out.push({ ...run, live: live.jobs, wakeLive: live.wake });
    } catch (err) {
      error ??= (err as Error).message;
      out.push(run);
    }
  }
  return { runs: out, error };
}
