import type { Compute } from "../compute/compute.ts";
import { isPending } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import type { MeasureView } from "../measure/measurer.ts";
import { evalDirPath } from "../dispatch/eval_files.ts";
import { noResultMessage } from "../measure/notes.ts";
import { MAX_RETRIES, retryNumber } from "../measure/retry.ts";
import { SCHEDULER_UNREACHABLE } from "../measure/measure_state.ts";
import { type DecisionRecord, readDecision } from "../rundir/decision_file.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import { pairedValues, type PassPlan, RoundSteps, runPlan } from "../plan/run_plan.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { decideLook } from "../verdict/decide.ts";
import type { Measure } from "../measure/measure.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";
import { readWakeRecord, type WakeRecord } from "../rundir/wake_record.ts";

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
 * see: the same observation (one queue listing with every job's state and
 * pending reason, one batched sacct) and the same classification
 * (`classifyMeasure`) the measurer acts on, so `show` says what `resume`
 * would do.
 */
export async function runStatus(dir: RunDir, r: RunRecord, compute: Compute, now: () => number): Promise<RunStatus> {
  const measurer = measurerFor(dir, r, compute, now);
  const cache = cachedBaseline(dir, r, false);
  const c = r.contract;
  let p: PassPlan;
  let views = new Map<string, MeasureView>();
  const observe = async (plan: PassPlan) => {
    views = new Map((await measurer.observe(plan.toMeasure)).map((v) => [v.measure.name, v]));
    return complete(dir, plan, views, (m) => measurer.slot(m));
  };
  // the look (a round: the batch) a pass would stand at: the first whose pairs are not all in, or that decides
  if (r.candidates.length > 1) {
    const steps = new RoundSteps(r, cache);
    for (;;) {
      p = steps.plan;
      const values = await observe(p);
      if (values === null || steps.advance(values).next.kind === "final") break;
    }
  } else {
    const plan = runPlan(r, cache);
    p = plan.first;
    for (const look of plan.design.looks) {
      p = plan.look(look.n);
      const values = await observe(p);
      if (values === null || decideLook(c, pairedValues(p.plan, values)).next.kind === "final") break;
    }
  }
  const unreachable = [...views.values()].some((v) =>
    v.state.kind === "unknown" && v.state.why === SCHEDULER_UNREACHABLE
  );
  const rows = p.plan.map((m): MeasureStateRow => {
    const view = views.get(m.name);
    if (view === undefined) {
      return { name: m.name, state: "done", value: p.cached[m.name]!, why: "from the baseline cache" };
    }
    return rowOf(dir, view, measurer.slot(m), c.evalMinutes);
  });
  return {
    measures: rows,
    plan: p.plan,
    wake: readWakeRecord(dir),
    decision: readDecision(dir, r),
    schedulerError: unreachable ? "the scheduler could not be asked; live jobs' states are unknown" : null,
  };
}

/** Every value of the look, when every measure is done with a readable result; else null. */
function complete(
  dir: RunDir,
  p: PassPlan,
  views: ReadonlyMap<string, MeasureView>,
  slotOf: (m: Measure) => string,
): Record<string, number> | null {
  const values: Record<string, number> = { ...p.cached };
  for (const m of p.toMeasure) {
    if (views.get(m.name)?.state.kind !== "done") return null;
    try {
      values[m.name] = readEvalResult(dir.path, slotOf(m), m.metric, m.summary);
    } catch (err) {
      if (err instanceof EvalError) return null;
      throw err;
    }
  }
  return values;
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
