// Tested by tests/run/watch_test.ts
import type { Compute } from "../compute/compute.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunEvaluation } from "../evaluation/evaluate.ts";
import type { Measure } from "../measure/measure.ts";
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
  /**
   * When each pending or running measure's job was submitted (its marker's
   * mtime), epoch ms: how long it has been out, whoever submitted it and
   * whenever the caller began to look.
   */
  readonly submittedMs: Readonly<Record<string, number>>;
}

/**
 * Reads a run's state without changing anything, from what a pass would
 * see: the look its results on disk leave it at (plan/advance.ts, as the
 * pass walks it). While a measure of that look has not finished, the rows
 * come from the measurer's own observation (observed_rows.ts, loaded only
 * then), so `show` says what `resume` would do; once every one has — a
 * decided run, most often — the snapshot's results are the whole answer, as
 * they are the measurer's (a finished measure asks the scheduler nothing),
 * and neither the measurer nor a backend is loaded — but for a signal's
 * exit in a run not yet over, which the scheduler's account decides. A
 * failed measure that the run recorded as a candidate's crash (crashes.json)
 * reads `crashed`, and one a crash stopped (its `stopped`) `cancelled`.
 */
export async function runStatus(e: RunEvaluation, compute: Compute, now: () => number): Promise<RunStatus> {
  const p = e.looks.plan;
  const { values, unreadable, signalled } = e.snapshot.results;
  const stopped = new Map(e.snapshot.stopped.map((s) => [s.measure, s]));
  // a crash decides at once: what of its look had not started never will (the local backend stops before it)
  const crashedRun = e.snapshot.decision?.verdict === "crashed";
  // a signal's exit of an open run is the scheduler's to judge: observed, as the pass would
  const over = e.snapshot.decision !== null || e.snapshot.failure !== null;
  const finished = crashedRun ||
    p.toMeasure.every((m) =>
      Object.hasOwn(values, m.name) || stopped.has(m.name) ||
      (Object.hasOwn(unreadable, m.name) && (over || !signalled.has(m.name)))
    );
  const observed = finished ? null : await import("./observed_rows.ts").then((o) => o.observedRows(e, compute, now));
  const crashed = new Set(e.snapshot.crashes.map((c) => c.measure));
  const measured = new Set(p.toMeasure.map((m) => m.name));
  const rows = p.plan.map((m): MeasureStateRow => {
    const stop = stopped.get(m.name);
    // what a crash stopped (fail fast): its job cancelled by outerloop, whatever it might still deliver unread
    if (stop !== undefined) {
      return {
        name: m.name,
        state: "cancelled",
        why: "stopped: the candidate crashed",
        ...(stop.jobId ? { jobId: stop.jobId } : {}),
      };
    }
    const row = !measured.has(m.name)
      ? cachedRow(e, m)
      : observed === null
      ? finishedRow(e, m)
      : observed.rows.get(m.name)!;
    // a candidate's failure is its crash (crashes.json): a verdict on the proposal, not a failure of the run
    return row.state === "failed" && crashed.has(m.name) ? { ...row, state: "crashed" } : row;
  });
  return {
    measures: rows,
    plan: p.plan,
    wake: e.snapshot.wake,
    decision: e.snapshot.decision,
    submittedMs: observed?.submittedMs ?? {},
    schedulerError: observed?.unreachable ? "the scheduler could not be asked; live jobs' states are unknown" : null,
  };
}

/** A finished measure's line from the snapshot: its value, or why its result cannot be read. */
function finishedRow(e: RunEvaluation, m: Measure): MeasureStateRow {
  const { values, unreadable, jobIds } = e.snapshot.results;
  const job = jobIds[m.name] === undefined ? {} : { jobId: jobIds[m.name]! };
  const why = unreadable[m.name];
  if (why !== undefined) return { name: m.name, state: "failed", why: why.split("\n")[0]!, ...job };
  if (!Object.hasOwn(values, m.name)) {
    return { name: m.name, state: "not dispatched", reason: "not measured: the candidate crashed before it", ...job };
  }
  return { name: m.name, state: "done", value: values[m.name]!, ...job };
}

/** A measure the look takes from the baseline cache. */
function cachedRow(e: RunEvaluation, m: Measure): MeasureStateRow {
  return { name: m.name, state: "done", value: e.looks.plan.cached[m.name]!, why: "from the baseline cache" };
}
