import { isJobRef } from "../compute/compute.ts";
import { GONE, isTerminal } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalReading } from "../dispatch/read_result.ts";
import type { FailureKind, MeasureFailure } from "./look_results.ts";
import type { Measure } from "./measure.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { neverStartedHint, noResultMessage, noResultNote, raiseEvalMinutes } from "./notes.ts";
import type { MeasureView } from "./observe.ts";
import { attemptsOf } from "./attempts.ts";
import { cancelledBy, nobodysCode } from "./retry.ts";
import { NO_RECORD_GRACE_MS } from "./observe.ts";
import { explainSignalExit, isSignalExit } from "./signal_exit.ts";

/**
 * What a finished or ended measure came to, the one step between what a
 * pass saw (`MeasureView`) and what the look reports:
 * - `value`: its result, with the result's other numbers (for guards);
 * - `failed`: a failure of its own (look_results.ts `FailureKind`);
 * - `resend`: its job ended for a cause that is nobody's code (retry.ts): send it again;
 * - `ours`: its job was cancelled by outerloop itself: neither failed nor sent again;
 * - `wait`: a signal's exit whose end the scheduler has not given yet — its job still listed (finishing, or
 *   requeued and queued again), not over per sacct, or not in sacct yet (`soon`: only accounting is awaited) —
 *   or the scheduler could not say.
 */
export type Outcome =
  | { readonly kind: "value"; readonly value: number; readonly metrics: Readonly<Record<string, number>> }
  | { readonly kind: "failed"; readonly failure: MeasureFailure }
  | { readonly kind: "resend"; readonly jobId: string; readonly endState: string }
  | { readonly kind: "ours"; readonly jobId: string }
  | { readonly kind: "wait"; readonly jobId: string | null; readonly soon?: boolean };

/**
 * The outcome of every done measure of `views` (one batched sacct explains
 * the signal exits: Slurm sends TERM at the walltime, on scancel and on
 * preemption alike) and of every vanished one, by measure name.
 */
export async function readOutcomes(
  ctx: MeasurerContext,
  views: readonly MeasureView[],
  ours: ReadonlySet<string>,
): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  const killed = views.filter((v) => v.state.kind === "done" && isSignalExit(v.dir.exitCode));
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
      if (isSignalExit(v.dir.exitCode) && jobId !== null && isJobRef(jobId)) {
        out.set(m.name, signalled(ctx, v, jobId, states === "unknown" ? null : states.get(jobId) ?? "", ours));
      } else out.set(m.name, reading(ctx, m, jobId));
    }
  }
  if (states !== "unknown") await relaunched(ctx, killed, states, out);
  return out;
}

/**
 * A signal's exit that would be blamed on the eval may be a requeued run's:
 * the scheduler TERMs a job it requeues (preemption, `scontrol requeue`), its
 * eval records 143, and the job's end is then its later run's — one that never
 * reached the eval script, refused on its node ("Job credential revoked", when
 * started before the node let go of the first run) or killed before it began.
 * A run that does start sets the one before aside in `attempt-<n>/`
 * (`restart`: the eval script), so fewer such attempts than the job's requeues
 * means the exit code on disk is not its last run's: nobody's code, sent
 * again. One sacct for them all, asked only when a signal is about to be
 * blamed; when it cannot be asked, the measure waits for the next pass.
 */
async function relaunched(
  ctx: MeasurerContext,
  killed: readonly MeasureView[],
  states: ReadonlyMap<string, string>,
  out: Map<string, Outcome>,
): Promise<void> {
  const compute = ctx.o.compute;
  const blamed = killed.filter((v) => out.get(v.measure.name)?.kind === "failed" && isJobRef(ctx.marker(v.measure)));
  if (blamed.length === 0 || compute.requeues === undefined) return;
  let requeues: Map<string, number>;
  try {
    requeues = await compute.requeues(
      blamed.map((v) => ctx.marker(v.measure)),
      ctx.since(blamed.map((v) => v.measure)),
    );
  } catch {
    for (const v of blamed) out.set(v.measure.name, { kind: "wait", jobId: null });
    return;
  }
  for (const v of blamed) {
    const jobId = ctx.marker(v.measure);
    const setAside = attemptsOf(ctx.evalDir(v.measure)).filter((a) => a.requeued && a.jobId === jobId).length;
    if ((requeues.get(jobId) ?? 0) <= setAside) continue;
    const endState = `${
      states.get(jobId) ?? ""
    } in a run after the scheduler requeued it, before its eval started again`;
    out.set(v.measure.name, { kind: "resend", jobId, endState });
  }
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
  const hint = endState.startsWith("FAILED") && !ctx.dir(m).started ? `; ${neverStartedHint(jobId, ctx.o.root)}` : "";
  return failed(m, jobId, timeout ? "timeout" : "vanished", timeout ? ranPast(ctx) : noResultNote(jobId, endState), {
    message: `measure ${m.name}: ${noResultMessage(jobId, endState, ctx.o.evalMinutes)}${hint}`,
  });
}

/**
 * An eval that recorded a signal's exit (143, 137): judged by its job's end
 * state, never before the scheduler has given one — the exit-code file and
 * the scheduler's account race (an scancelled task's 143 is on disk while
 * squeue still lists it COMPLETING and sacct has no row for it yet), and
 * which is read first must not decide whether the run survives. So: a job
 * the listing still shows, or one sacct says is not over (requeued), is
 * waited on; one sacct has no record of yet is awaited `soon`, until the
 * exit code is NO_RECORD_GRACE_MS old (then the signal is the eval's, for
 * want of any other account); an end that is nobody's code (cancelled by
 * someone else, preempted, its node failed) is sent again; any other end
 * (walltime, out of memory, failed) is the eval's own failure. `state`
 * null: sacct could not be asked. Not scheduled (the local backend, whose
 * record is written as the job ends): the record is final at once.
 */
function signalled(
  ctx: MeasurerContext,
  v: MeasureView,
  jobId: string,
  state: string | null,
  ours: ReadonlySet<string>,
): Outcome {
  const m = v.measure;
  if (cancelledBy(ours, jobId)) return { kind: "ours", jobId };
  const listed = v.observation.listed;
  if (listed !== null && listed !== "unknown" && !isTerminal(listed.state)) return { kind: "wait", jobId };
  if (state === null) return { kind: "wait", jobId: null }; // unexplained yet: the next pass asks again
  const recorded = state !== "" && state !== GONE;
  if (recorded && !isTerminal(state)) return { kind: "wait", jobId }; // requeued: it runs again
  if (!recorded && ctx.o.lanes.scheduled) {
    const at = v.dir.exitCodeMs;
    if (at === null || ctx.o.now() - at < NO_RECORD_GRACE_MS) return { kind: "wait", jobId: null, soon: true };
  }
  const end = recorded ? state : "";
  if (nobodysCode(end)) return { kind: "resend", jobId, endState: end };
  const r = reading(ctx, m, jobId);
  if (r.kind !== "failed") return r;
  const code = v.dir.exitCode!;
  const timeout = end.startsWith("TIMEOUT");
  return failed(
    m,
    jobId,
    timeout ? "timeout" : "exit",
    timeout ? ranPast(ctx) : `eval killed by a signal (exit ${code})`,
    {
      message: explainSignalExit(
        m.name,
        code,
        end,
        r.failure.message.replace(`measure ${m.name}: `, ""),
        ctx.o.evalMinutes,
      ),
    },
  );
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
