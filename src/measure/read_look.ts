import { isJobRef } from "../compute/compute.ts";
import { isTerminal } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalReading } from "../dispatch/read_result.ts";
import type { FailureKind, MeasureFailure } from "./look_results.ts";
import type { Measure } from "./measure.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { noResultMessage, noResultNote, raiseEvalMinutes } from "./notes.ts";
import type { MeasureView } from "./observe.ts";
import { cancelledBy, nobodysCode } from "./retry.ts";
import { explainSignalExit } from "./signal_exit.ts";

/**
 * What a finished or ended measure came to, the one step between what a
 * pass saw (`MeasureView`) and what the look reports:
 * - `value`: its result, with the result's other numbers (for guards);
 * - `failed`: a failure of its own (look_results.ts `FailureKind`);
 * - `resend`: its job ended for a cause that is nobody's code (retry.ts): send it again;
 * - `ours`: its job was cancelled by outerloop itself: neither failed nor sent again;
 * - `wait`: not over after all (an exit 143 of a job the scheduler requeued), or the scheduler could not say.
 */
export type Outcome =
  | { readonly kind: "value"; readonly value: number; readonly metrics: Readonly<Record<string, number>> }
  | { readonly kind: "failed"; readonly failure: MeasureFailure }
  | { readonly kind: "resend"; readonly jobId: string; readonly endState: string }
  | { readonly kind: "ours"; readonly jobId: string }
  | { readonly kind: "wait"; readonly jobId: string | null };

/**
 * The outcome of every done measure of `views` (one batched sacct explains
 * the exit-143s: Slurm sends TERM at the walltime, on scancel and on
 * preemption alike) and of every vanished one, by measure name.
 */
export async function readOutcomes(
  ctx: MeasurerContext,
  views: readonly MeasureView[],
  ours: ReadonlySet<string>,
): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  const killed = views.filter((v) => v.state.kind === "done" && v.dir.exitCode === "143");
  const ids = killed.map((v) => ctx.marker(v.measure)).filter(isJobRef);
  let states: Map<string, string> | "unknown" = new Map();
  if (ids.length > 0) {
    try {
      states = await ctx.o.compute.statuses(ids, ctx.since(killed.map((v) => v.measure)));
    } catch {
      states = "unknown";
    }
  }
  for (const v of views) {
    const m = v.measure;
    const jobId = ctx.marker(m) || null;
    if (v.state.kind === "vanished") {
      out.set(m.name, ended(ctx, m, v.state.jobId, v.state.endState, ours));
    } else if (v.state.kind === "done") {
      if (v.dir.exitCode === "143" && jobId !== null && isJobRef(jobId)) {
        out.set(m.name, signalled(ctx, v, jobId, states === "unknown" ? null : states.get(jobId) ?? "", ours));
      } else out.set(m.name, reading(ctx, m, jobId));
    }
  }
  return out;
}

/** A job that ended without a result (no exit code): sent again, ours, or a failure of its own. */
export function ended(
  ctx: MeasurerContext,
  m: Measure,
  jobId: string,
  endState: string,
  ours: ReadonlySet<string>,
): Outcome {
  if (cancelledBy(ours, jobId)) return { kind: "ours", jobId };
  if (nobodysCode(endState)) return { kind: "resend", jobId, endState };
  const timeout = endState.startsWith("TIMEOUT");
  return failed(m, jobId, timeout ? "timeout" : "vanished", timeout ? ranPast(ctx) : noResultNote(jobId, endState), {
    message: `measure ${m.name}: ${noResultMessage(jobId, endState, ctx.o.evalMinutes)}`,
  });
}

/** An eval that recorded exit 143 (a TERM): what the scheduler's end state makes of it; `state` null: unknown. */
function signalled(
  ctx: MeasurerContext,
  v: MeasureView,
  jobId: string,
  state: string | null,
  ours: ReadonlySet<string>,
): Outcome {
  const m = v.measure;
  if (cancelledBy(ours, jobId)) return { kind: "ours", jobId };
  if (state === null) return { kind: "wait", jobId: null }; // unexplained yet: the next pass asks again
  if (state !== "" && !isTerminal(state)) return { kind: "wait", jobId }; // requeued: it runs again
  if (nobodysCode(state)) return { kind: "resend", jobId, endState: state };
  const r = reading(ctx, m, jobId);
  if (r.kind !== "failed") return r;
  const timeout = state.startsWith("TIMEOUT");
  return failed(m, jobId, timeout ? "timeout" : "exit", timeout ? ranPast(ctx) : "eval killed by a signal (exit 143)", {
    message: explainSignalExit(m.name, state, r.failure.message.replace(`measure ${m.name}: `, ""), ctx.o.evalMinutes),
  });
}

/** A finished eval's value, or the failure its result is. */
function reading(ctx: MeasurerContext, m: Measure, jobId: string | null): Outcome {
  try {
    const r = readEvalReading(ctx.o.root, ctx.slot(m), m.metric, m.summary);
    return { kind: "value", value: r.value, metrics: r.metrics };
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    const code = ctx.dir(m).exitCode ?? "";
    const exited = code !== "0";
    const first = err.message.split("\n")[0]!;
    return failed(m, jobId, exited ? "exit" : "no-metric", lowerFirst(first), {
      message: `measure ${m.name}: ${err.message}`,
    });
  }
}

/** A failure record. */
export function failed(
  m: Measure,
  jobId: string | null,
  kind: FailureKind,
  cause: string,
  { message }: { readonly message: string },
): Outcome {
  return { kind: "failed", failure: { measure: m.name, jobId, kind, cause, message } };
}

/** The cause of a walltime kill, naming the contract key. */
function ranPast(ctx: MeasurerContext): string {
  return `ran past eval_minutes (${raiseEvalMinutes(ctx.o.evalMinutes).replace(/^.*\(now (.*)\)$/, "$1")})`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
