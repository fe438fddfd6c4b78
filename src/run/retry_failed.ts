import { evaluateRun } from "../evaluation/evaluate.ts";
import { readRunSnapshot } from "../evaluation/snapshot.ts";
import { BadInputError } from "../errors.ts";
import { log } from "../log.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import { retireFailure } from "../rundir/failure_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import type { MeasureFailure } from "../measure/look_results.ts";
import { acquireRunLock } from "./lock.ts";
import type { PhaseDeps } from "./phase.ts";

/**
 * `resume --retry-failed`: takes up a run that failed — its baseline's eval
 * failed, a pair job split over hosts, a job the machine kept killing — once
 * the cause is fixed, re-measuring only what failed. Under the run lock: the
 * look the run failed at is observed once (no dispatch), each failed
 * measure's attempt is set aside in its eval dir (`attempt-<n>/`, its job
 * never adopted again: measure/measurer.ts `forgetFailed`), the failure goes
 * into `failure-history.json`, and the next pass sends those measures again
 * (a measure outerloop cancelled when the run failed is sent again there
 * too). Every measured value is kept. A run that did not fail is refused
 * (exit 2): there is nothing to retry. The measures set aside.
 */
export async function retryFailedRun(dir: RunDir, r: RunRecord, deps: PhaseDeps): Promise<string[]> {
  const lock = await acquireRunLock(dir, {
    now: deps.now,
    waitMs: deps.lockWaitMs ?? 0,
    ...(r.compute === "local" ? { staleMs: Number.POSITIVE_INFINITY } : {}),
  });
  try {
    const e = evaluateRun(readRunSnapshot(dir, r));
    if (e.standing.kind !== "failed") {
      throw new BadInputError(
        `--retry-failed: the run in ${JSON.stringify(dir.path)} has not failed (it is ${e.standing.kind}); ` +
          `"outerloop resume ${dir.path}" goes on without it`,
      );
    }
    const measurer = measurerFor(dir, r, deps.compute, deps.now);
    const measures = e.looks.plan.toMeasure;
    const outcomes = await measurer.outcomes(await measurer.observe(measures));
    const failed: MeasureFailure[] = [];
    for (const o of outcomes.values()) if (o.kind === "failed") failed.push(o.failure);
    const forgotten = measurer.forgetFailed(measures, failed);
    retireFailure(dir, deps.now());
    log.info(
      forgotten.length > 0
        ? `retrying the run: ${forgotten.join(", ")} set aside (their attempts kept) and sent again`
        : "retrying the run: no measure of its look failed for good now; the pass goes on from what is on disk",
    );
    return forgotten;
  } finally {
    lock.release();
  }
}
