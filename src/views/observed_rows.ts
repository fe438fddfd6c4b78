// Tested by tests/run/watch_test.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import { isPending } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { EVAL_FILES, evalDirPath } from "../dispatch/eval_files.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import type { MeasureView } from "../measure/measurer.ts";
import { SCHEDULER_UNREACHABLE } from "../measure/measure_state.ts";
import type { Outcome } from "../measure/read_look.ts";
import { isSignalExit } from "../measure/signal_exit.ts";
import { neverStartedHint, noResultMessage } from "../measure/notes.ts";
import { MAX_RETRIES, retryNumber } from "../measure/retry.ts";
import type { RunEvaluation } from "../evaluation/evaluate.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";
import type { RunDir } from "../rundir/run_dir.ts";

/**
 * The rows of a look with a measure still out, from the measurer's own
 * observation (one queue listing with every job's state and pending reason,
 * one batched sacct) and classification (`classifyMeasure`), so `show` says
 * what `resume` would do. Loaded only then: a look whose every measure has
 * finished is told from the snapshot (run_status.ts).
 */
export async function observedRows(
  e: RunEvaluation,
  compute: Compute,
  now: () => number,
): Promise<ObservedRows> {
  const { dir, record: r } = e.snapshot;
  const measurer = measurerFor(dir, r, compute, now);
  const views = await measurer.observe(e.looks.plan.toMeasure);
  // a signal's exit is what the scheduler's account makes it (read_look.ts), as the pass would judge it
  const stopped = views.filter((v) => v.state.kind === "done" && isSignalExit(v.dir.exitCode));
  const judged = stopped.length > 0 ? await measurer.outcomes(stopped) : new Map<string, Outcome>();
  const rows = new Map(
    views.map((v) => {
      const o = judged.get(v.measure.name);
      const row = o === undefined ? null : signalRow(v, o);
      return [v.measure.name, row ?? rowOf(dir, v, measurer.slot(v.measure), r.contract.evalMinutes)];
    }),
  );
  const submittedMs: Record<string, number> = {};
  for (const v of views) {
    const state = rows.get(v.measure.name)!.state;
    const at = state === "pending" || state === "running" ? v.dir.markerMs : null;
    if (at !== null) submittedMs[v.measure.name] = at;
  }
  return {
    rows,
    submittedMs,
    unreachable: views.some((v) => v.state.kind === "unknown" && v.state.why === SCHEDULER_UNREACHABLE),
  };
}

/** The rows of a look's measures, by name, and what else the observation knew. */
export interface ObservedRows {
  readonly rows: ReadonlyMap<string, MeasureStateRow>;
  /** When each pending or running measure's job was submitted (its marker's mtime), epoch ms. */
  readonly submittedMs: Readonly<Record<string, number>>;
  /** Whether the scheduler could not be asked. */
  readonly unreachable: boolean;
}

/**
 * The line of a measure whose eval a signal stopped, from what the pass
 * would make of it (`outcome`); null when that is its value or its own
 * failure, which the done row says as it does any result.
 */
function signalRow({ measure: m, dir }: MeasureView, o: Outcome): MeasureStateRow | null {
  const code = dir.exitCode;
  const name = m.name;
  switch (o.kind) {
    case "wait":
      return {
        name,
        state: "running",
        ...(o.jobId ? { jobId: o.jobId } : {}),
        reason: `stopped by a signal (exit ${code}); the scheduler has not said how its job ended yet`,
      };
    case "resend": {
      const retry = retryNumber([dir.dir], dir.dir, o.jobId, o.endState);
      const ended = `job ${o.jobId} ended ${o.endState} (exit ${code})`;
      return retry === null
        ? { name, state: "failed", jobId: o.jobId, why: `${ended}, and it was sent again ${MAX_RETRIES} times already` }
        : {
          name,
          state: "not dispatched",
          jobId: o.jobId,
          reason: `${ended}, which is no fault of its code: the next pass sends it again (retry ${retry} of ` +
            `${MAX_RETRIES})`,
        };
    }
    case "ours":
      return { name, state: "cancelled", jobId: o.jobId };
    default:
      return null;
  }
}

/**
 * What `show` says of a job queued again after its eval began: the
 * scheduler requeued it, and the run it began (on the host its `started`
 * line names) ended without a result; it runs again under the same id, its
 * earlier attempt kept (dispatch/eval_script.ts).
 */
function requeuedNote(evalDir: string): string {
  let host = "";
  try {
    host = readFileSync(join(evalDir, EVAL_FILES.started), "utf8").trim().split(" ")[1] ?? "";
  } catch {
    // gone meanwhile: said without the host
  }
  return `requeued by the scheduler: its run${host ? ` on ${host}` : ""} ended without a result (its node lost, ` +
    "or preempted); it runs again under the same job";
}

/** One measure's line, from its state. */
function rowOf(
  dir: RunDir,
  { measure: m, state: s, dir: evalDir }: MeasureView,
  slot: string,
  evalMinutes: number,
): MeasureStateRow {
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
      const why = pending && s.job.reason && s.job.reason !== "None" ? s.job.reason : "";
      // queued again after its eval began: the scheduler requeued it (its node lost, preempted, scontrol requeue)
      const requeued = pending && evalDir.started ? requeuedNote(evalDir.dir) : "";
      const reason = [requeued, why].filter((w) => w !== "").join("; ");
      return { name, state: pending ? "pending" : "running", jobId: s.job.id, ...(reason ? { reason } : {}) };
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
      const hint = s.endState.startsWith("FAILED") && !evalDir.started
        ? `; ${neverStartedHint(s.jobId, dir.path)}`
        : "";
      return { name, state: "failed", jobId: s.jobId, why: noResultMessage(s.jobId, s.endState, evalMinutes) + hint };
    }
    case "undispatched":
      return { name, state: "not dispatched" };
    case "unknown":
      return s.jobId
        ? { name, state: "pending", jobId: s.jobId, reason: s.why }
        : { name, state: "not dispatched", reason: s.why };
  }
}
