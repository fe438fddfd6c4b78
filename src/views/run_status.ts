// Tested by tests/run/watch_test.ts
import type { Compute } from "../compute/compute.ts";
import { isPending } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import type { MeasureView } from "../measure/measurer.ts";
import { evalDirPath } from "../dispatch/eval_files.ts";
import { noResultMessage } from "../measure/notes.ts";
import { MAX_RETRIES, retryNumber } from "../measure/retry.ts";
import { SCHEDULER_UNREACHABLE } from "../measure/measure_state.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunEvaluation } from "../evaluation/evaluate.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import type { Measure } from "../measure/measure.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";
import type { WakeRecord } from "../rundir/wake_record.ts";

/** Where a run stands: every measure, the wake job, the verdict. */
export interface RunStatus {
  readonly measures: readonly MeasureStateRow[];
  /** The measures of the look the rows are of, in plan order. */
  readonly plan: readonly Measure[];
  readonly wake: WakeRecord | null;
  readonly decision: DecisionRecord | null;
  /** Set when the scheduler could not be asked; states of live jobs are then unknown. */
  readonly schedulerError: string | null;
}

/**
 * Reads a run's state without changing anything, from what a pass would
 * see: the look its results on disk leave it at (plan/advance.ts, as the
 * pass walks it), then the same observation of that look's measures (one
 * queue listing with every job's state and pending reason, one batched
 * sacct) and the same classification (`classifyMeasure`) the measurer acts
 * on, so `show` says what `resume` would do. A failed measure that the run
 * recorded as a candidate's crash (crashes.json) reads `crashed`.
 */
export async function runStatus(e: RunEvaluation, compute: Compute, now: () => number): Promise<RunStatus> {
  const { dir, record: r } = e.snapshot;
  const measurer = measurerFor(dir, r, compute, now);
  const p = e.looks.plan;
  const views = new Map((await measurer.observe(p.toMeasure)).map((v) => [v.measure.name, v]));
  const unreachable = [...views.values()].some((v) =>
    v.state.kind === "unknown" && v.state.why === SCHEDULER_UNREACHABLE
  );
  const crashed = new Set(e.snapshot.crashes.map((c) => c.measure));
  const rows = p.plan.map((m): MeasureStateRow => {
    const view = views.get(m.name);
    if (view === undefined) {
      return { name: m.name, state: "done", value: p.cached[m.name]!, why: "from the baseline cache" };
    }
    const row = rowOf(dir, view, measurer.slot(m), r.contract.evalMinutes);
    // a candidate's failure is its crash (crashes.json): a verdict on the proposal, not a failure of the run
    return row.state === "failed" && crashed.has(m.name) ? { ...row, state: "crashed" } : row;
  });
  return {
    measures: rows,
    plan: p.plan,
    wake: e.snapshot.wake,
    decision: e.snapshot.decision,
    schedulerError: unreachable ? "the scheduler could not be asked; live jobs' states are unknown" : null,
  };
}

/** One measure's line, from its state. */
function rowOf(dir: RunDir, { measure: m, state: s }: MeasureView, slot: string, evalMinutes: number): MeasureStateRow {
  const name = m.name;
  switch (s.kind) {
    case "done": {
      const job = s.jobId ? { jobId: s.jobId } : {};
      try {
        return { name, state: "done", value: readEvalResult(dir.path, slot, m.metric, m.summary), ...job };
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        return { name, state: "failed", why: err.message.split("\n")[0]!, ...job };
      }
    }
    case "live": {
      const pending = isPending(s.job.state);
      const reason = pending && s.job.reason && s.job.reason !== "None" ? { reason: s.job.reason } : {};
      return { name, state: pending ? "pending" : "running", jobId: s.job.id, ...reason };
    }
    case "unlisted":
      return {
        name,
        state: isPending(s.state) ? "pending" : "running",
        jobId: s.jobId,
        reason: `not in the queue listing; sacct says ${s.state}`,
      };
    case "vanished": {
      // a job that died of its machine before its eval started is sent again by the next pass (retry.ts)
      const own = evalDirPath(dir.path, slot);
      const retry = retryNumber([own], own, s.jobId, s.endState);
      if (retry !== null) {
        return {
          name,
          state: "not dispatched",
          jobId: s.jobId,
          reason: `job ${s.jobId} ended ${s.endState} before its eval started: the next pass sends it again ` +
            `(retry ${retry} of ${MAX_RETRIES})`,
        };
      }
      return { name, state: "failed", jobId: s.jobId, why: noResultMessage(s.jobId, s.endState, evalMinutes) };
    }
    case "undispatched":
      return { name, state: "not dispatched" };
    case "unknown":
      return s.jobId
        ? { name, state: "pending", jobId: s.jobId, reason: s.why }
        : { name, state: "not dispatched", reason: s.why };
  }
}
