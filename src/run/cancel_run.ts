// Tested by tests/run/watch_test.ts
import type { Compute } from "../compute/compute.ts";
import { log } from "../log.ts";
import { writeCancel } from "../rundir/cancel_file.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunFailure } from "../rundir/failure_file.ts";
import { readRunSnapshot } from "../evaluation/snapshot.ts";
import { standingOf } from "../evaluation/standing.ts";
import { acquireRunLock, RunLockedError } from "./lock.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { cancelLiveJobs } from "../plan/run_jobs.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { stopLocalPass, type StoppedPass } from "./stop_local_pass.ts";

/** How long `cancel` waits for a pass in flight (a wake job) to finish before it sweeps the queue. */
const LOCK_WAIT_MS = 120_000;

/** What `cancelRun` did. */
export type CancelOutcome =
  /** The run was decided: nothing was changed. */
  | { readonly kind: "decided"; readonly decision: DecisionRecord }
  /** The run had failed already (it stays failed): `jobs` are leftovers of it this call cancelled, usually none. */
  | { readonly kind: "failed"; readonly failure: RunFailure; readonly jobs: readonly string[] }
  /**
   * The run is cancelled: `jobs` are the queued or running jobs this call
   * stopped; `already` when an earlier cancel recorded it (then `jobs` are
   * stragglers, usually none). `local`: for a local run, the pass that was
   * measuring it and the eval process groups this call stopped.
   */
  | {
    readonly kind: "cancelled";
    readonly at: string;
    readonly jobs: readonly string[];
    readonly already: boolean;
    readonly local: StoppedPass | null;
  };

/**
 * Cancels a run for the user: records it in `cancelled.json` FIRST — so any
 * pass that starts from now on, a wake included, refuses to dispatch, and a
 * pass in flight dispatches nothing more and writes no verdict — then, for a
 * local run, stops the running evals of the pass measuring it (its lock
 * holder's process groups: `stopLocalPass`), and, once a pass in flight has
 * let go of the run lock, cancels every queued or running job of the run
 * (its evals and its wake) from one listing with ONE scancel, and records
 * which. A decided run is left as it is; so is a failed
 * one (it stays failed), but for any job of it still live. Cancelling a
 * cancelled run again sweeps the queue once more (nothing, normally) and
 * keeps the first record. A scheduler that cannot be reached rejects (exit
 * 4) with the run already marked cancelled: run the cancel again later.
 */
export async function cancelRun(
  dir: RunDir,
  r: RunRecord,
  compute: Compute,
  now: () => number,
): Promise<CancelOutcome> {
  // where the run stands, by the one precedence every command uses (a cancel wins over a verdict after it)
  const snapshot = readRunSnapshot(dir, r);
  const standing = standingOf(snapshot);
  if (standing.kind === "decided") return { kind: "decided", decision: standing.decision };
  const earlier = snapshot.cancel;
  if (standing.kind === "failed") {
    // over already, and never dispatching again: only a job its pass could not cancel may be left
    return { kind: "failed", failure: standing.failure, jobs: await cancelLiveJobs(compute, dir, r) };
  }
  const at = earlier?.cancelledAt ?? new Date(now()).toISOString();
  if (earlier === null) writeCancel(dir, { cancelledAt: at, jobs: [] });
  const local = r.compute === "local";
  const stopped = local ? await stopLocalPass(dir, { now }) : null;
  let release = () => {};
  try {
    const lock = await acquireRunLock(dir, {
      now,
      waitMs: local ? 0 : LOCK_WAIT_MS,
      ...(local ? { staleMs: Number.POSITIVE_INFINITY } : {}),
    });
    release = () => lock.release();
  } catch (err) {
    if (!(err instanceof RunLockedError)) throw err;
    const next = local ? "it stops before its next eval and writes no verdict" : "it stops at its next pass";
    log.warn(`${err.message.split(". ")[0]}; ${next}, cancelling the jobs it has now`);
  }
  try {
    const jobs = await cancelLiveJobs(compute, dir, r);
    writeCancel(dir, { cancelledAt: at, jobs: [...(earlier?.jobs ?? []), ...jobs] });
    return { kind: "cancelled", at, jobs, already: earlier !== null, local: stopped };
  } finally {
    release();
  }
}
