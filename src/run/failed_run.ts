import type { Compute } from "../compute/compute.ts";
import { ownJobId } from "../compute/job_env.ts";
import type { EvalError } from "../dispatch/eval_error.ts";
import { log } from "../log.ts";
import { MeasureFailedError } from "../measure/measure_failed.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { failureFrom, type RunFailure, writeFailure } from "../rundir/failure_file.ts";
import { runPlan } from "../plan/run_plan.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { cancelLiveJobs } from "../plan/run_jobs.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { closestKey } from "../contract/did_you_mean.ts";
import type { MeasureFailure } from "../measure/look_results.ts";
import { BASE_ARM, parseMeasureName } from "../measure/measure_name.ts";

/**
 * What a pass does when it meets an eval failure that fails the run (final
 * until `resume --retry-failed`, so exit 3 is certain): records it in
 * `failure.json` — the measure, its job and the cause as the look met them
 * (`MeasureFailedError`), else what the message names — and cancels the run's other queued or running
 * jobs — evals whose results can no longer change the outcome, and the wake
 * — instead of letting them burn allocation. The job this process runs in
 * (a wake) is spared. Neither step may hide the failure itself: a problem
 * here is logged, and the caller rethrows the EvalError.
 */
export async function endFailedRun(
  dir: RunDir,
  r: RunRecord,
  ctx: {
    readonly compute: Compute;
    readonly now: () => number;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
  err: EvalError,
): Promise<void> {
  try {
    writeFailure(dir, recordOf(dir, r, err, ctx.now()));
  } catch (writeErr) {
    log.warn(`cannot record the failure in ${JSON.stringify(dir.failure)}: ${(writeErr as Error).message}`);
  }
  if (r.compute === "local") return; // nothing of a local run outlives its pass
  try {
    const own = ownJobId(ctx.env);
    const ids = await cancelLiveJobs(ctx.compute, dir, r, own ? [own] : []);
    if (ids.length > 0) {
      log.info(
        `a measure failed for good: cancelled the run's ${ids.length} other queued or running job(s): ${
          ids.join(", ")
        }`,
      );
    }
  } catch (cancelErr) {
    log.warn(`cannot cancel the run's other jobs (${(cancelErr as Error).message}); they run to their end`);
  }
}

/** The failure to record: the look's own facts when the error carries them, else what its message names. */
function recordOf(dir: RunDir, r: RunRecord, err: EvalError, now: number): RunFailure {
  if (!(err instanceof MeasureFailedError)) {
    return failureFrom(err.message, runPlan(r, cachedBaseline(dir, r, false)).all.plan.map((m) => m.name), now);
  }
  const f = err.failure;
  const at = new Date(now).toISOString();
  return {
    measure: f.measure,
    jobId: f.jobId,
    kind: f.kind,
    cause: f.cause,
    message: err.message.trimEnd(),
    failedAt: at,
  };
}

/**
 * A baseline's result without the contract's metric, among other keys, is
 * most likely the contract's error (a misspelt `metric`), which no retry
 * mends: the run keeps the contract it was started with in run.json. Its
 * failure's first line then names the key the contract most likely meant
 * and the way on, a new run dir; any other failure is returned as it is.
 */
export function contractsFailure(r: RunRecord, f: MeasureFailure): MeasureFailure {
  if (f.kind !== "no-metric" || parseMeasureName(f.measure)?.arm !== BASE_ARM) return f;
  const m = /no metric ("(?:[^"\\]|\\.)*") in .*: keys present are (.*)$/.exec(f.cause);
  if (m === null) return f;
  let metric: string;
  let keys: string[];
  try {
    metric = JSON.parse(m[1]!);
    keys = m[2] === "none" ? [] : JSON.parse(`[${m[2]}]`);
  } catch {
    return f;
  }
  const near = closestKey(metric, keys);
  const hint = `${near === null ? "" : `; did you mean ${JSON.stringify(near)}?`} The run keeps its contract ` +
    `in run.json (resume --retry-failed measures under it again): fix the metric in ` +
    `${JSON.stringify(r.contractPath)} and measure in a new --run-dir`;
  const [first = "", ...rest] = f.message.split("\n");
  return { ...f, message: [first + hint, ...rest].join("\n") };
}
