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
    seedCache: r.seedCache,
    now,
    beforeDispatch: () => refuseCancelled(dir, " while this pass measured it"),
  });
}
