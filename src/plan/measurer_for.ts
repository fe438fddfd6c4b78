import type { Compute } from "../compute/compute.ts";
import { DispatchedMeasurer } from "../measure/measurer.ts";
import type { Lanes } from "../measure/placement.ts";
import { refuseCancelled } from "../rundir/cancel_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";

/** The lanes a run's jobs go to, from its record. */
export function lanesOf(r: RunRecord): Lanes {
  return {
    account: r.account,
    partition: r.partition,
    gpuPartition: r.gpuPartition,
    gpuAccount: r.gpuAccount,
    scheduled: r.compute !== "local",
  };
}

/**
 * Whether a run's looks go out as job arrays: unless turned off, for every
 * Slurm run but one that measures one pair of one candidate with no siblings
 * and no pairing — that run keeps the reference's dispatch, one job per
 * measure, byte for byte. (A look of one job is a job of its own either way;
 * the local backend runs every job in turn, so arrays would change nothing.)
 */
function arraysFor(r: RunRecord): boolean {
  const c = r.contract;
  const reference = c.maxRepeats === 1 && r.candidates.length === 1 && c.siblings.length === 0 &&
    c.pairing === "separate";
  return r.arrays && !reference && r.compute !== "local";
}

/**
 * The run's measurer, built from its dir and record alone: the same record
 * gives the same identities. It dispatches nothing once the run is cancelled
 * (`RunCancelledError`): a cancel during a pass stops the pass's next dispatch.
 */
export function measurerFor(dir: RunDir, r: RunRecord, compute: Compute, now: () => number): DispatchedMeasurer {
  return new DispatchedMeasurer({
    compute,
    root: dir.path,
    repoRoot: r.repo,
    image: r.image,
    lanes: lanesOf(r),
    evalMinutes: r.contract.evalMinutes,
    evalMem: r.contract.evalMem,
    evalCpus: r.contract.evalCpus,
    runTag: r.runTag,
    pairing: r.contract.pairing,
    arrays: { enabled: arraysFor(r), throttle: r.arrayThrottle },
    seedCache: r.seedCache,
    now,
    beforeDispatch: () => refuseCancelled(dir, " while this pass measured it"),
  });
}
