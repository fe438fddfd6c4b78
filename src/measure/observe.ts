import { splitRef } from "../compute/array.ts";
import { isJobRef, isTaskId, type LiveJob } from "../compute/compute.ts";
import { log } from "../log.ts";
import type { EvalDirState } from "./eval_dir_state.ts";
import { arrayJobName } from "./identity.ts";
import type { Measure } from "./measure.ts";
import { classifyMeasure, type MeasureState, type Observation } from "./measure_state.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { taskOf } from "./recovery.ts";
import { isSignalExit } from "./signal_exit.ts";

/**
 * How long after its submission a job that sacct has no record of is "not
 * known yet" rather than gone: accounting lags the controller (nothing for
 * ~0.5 s after sbatch on an idle testbed, longer on a busy cluster), and one
 * empty answer is no proof that a job died. A job that did die shows a
 * terminal state in sacct and is failed at once; only "no record at all"
 * waits out this grace.
 */
export const NO_RECORD_GRACE_MS = 5 * 60_000;

/**
 * The end state a pass gives an array task that sacct has no row for once
 * its array is over: Slurm 22.05 records a task when it starts, so one with
 * no row never started — it was cancelled while pending (by someone; the
 * measurer tells outerloop's own cancels apart by id).
 */
export const CANCELLED_PENDING = "CANCELLED while pending (sacct has no row for the task)";

/** A measure with what its pass saw, what that makes it, and its eval dir as the pass read it. */
export interface MeasureView {
  readonly measure: Measure;
  readonly observation: Observation;
  readonly state: MeasureState;
  readonly dir: EvalDirState;
}

/**
 * What the scheduler and the run dir say of each measure, from at most ONE
 * queue listing and ONE batched sacct, and the state that follows. Each eval
 * dir's files are read once (`MeasurerContext.dir`); only a job the listing
 * misses has its exit code read again after each answer: a job that
 * finishes while the scheduler is answering (seconds, on a busy cluster) is
 * done, not dead. A dispatched job the listing misses is confirmed with
 * sacct before it is called vanished — an empty or lagging listing must not
 * kill a run — and sacct having no record of it counts only once its marker
 * is older than NO_RECORD_GRACE_MS (before that it is unknown: park on it).
 */
export async function observe(ctx: MeasurerContext, measures: readonly Measure[]): Promise<MeasureView[]> {
  ctx.beginPass(measures);
  // a signal's exit is judged by the scheduler's account of its job (read_look.ts): its job is listed too
  const open = measures.filter((m) => !ctx.done(m) || isSignalExit(ctx.dir(m).exitCode));
  let listing: Map<string, LiveJob[]> | "unknown" = new Map();
  if (open.length > 0) {
    try {
      listing = await ctx.o.compute.activeJobs();
    } catch (err) {
      log.warn(`cannot list the queue, re-checking on the next pass: ${(err as Error).message}`);
      listing = "unknown";
    }
  }
  const rows = listing === "unknown" ? [] : [...listing.values()].flat();
  const byId = new Map(rows.map((j) => [j.id, j]));
  const liveArrays = new Set(rows.flatMap((j) => (j.arrayId === null ? [] : [j.arrayId])));
  const listedOf = (m: Measure): LiveJob | null | "unknown" => {
    if (listing === "unknown") return "unknown";
    const marker = ctx.marker(m);
    if (isTaskId(marker)) return byId.get(marker) ?? null;
    const task = taskOf(ctx, ctx.unit(m));
    if (task !== null) {
      const name = arrayJobName(ctx.o.runTag, task.array.hash);
      return listing.get(name)?.find((j) => j.taskId === task.index) ?? null;
    }
    return listing.get(ctx.unitJobName(ctx.unit(m)))?.[0] ?? null;
  };
  const listed = new Map(open.map((m) => [m.name, listedOf(m)]));
  const missed = open.filter((m) => listed.get(m.name) === null);
  const unlisted = missed.filter((m) => ctx.dir(m).recheckExitCode() === null && isJobRef(ctx.marker(m)));
  // a task of an array no longer listed is asked with one finished task of its array (when the look has one):
  // sacct knowing that one and not this one means it was cancelled while pending (Slurm gives such a task no row)
  const witnesses = witnessesOf(ctx, measures, unlisted, liveArrays);
  let accounted: Map<string, string> | "unknown" = new Map();
  if (unlisted.length > 0) {
    try {
      accounted = await ctx.o.compute.statuses(
        [...unlisted.map((m) => ctx.marker(m)), ...witnesses.values()],
        ctx.since(unlisted),
      );
    } catch (err) {
      log.warn(`cannot ask sacct about jobs the queue no longer lists: ${(err as Error).message}`);
      accounted = "unknown";
    }
    for (const m of unlisted) ctx.dir(m).recheckExitCode();
  }
  /** A task no longer queued with no row while a finished task of its array has one; or past the grace. */
  const cancelledPending = (marker: string): string | undefined => {
    if (accounted === "unknown" || !isTaskId(marker) || liveArrays.has(splitRef(marker).jobId)) return undefined;
    const witness = witnesses.get(splitRef(marker).jobId);
    return witness !== undefined && accounted.has(witness) ? CANCELLED_PENDING : undefined;
  };
  return measures.map((measure) => {
    const dir = ctx.dir(measure);
    const marker = ctx.marker(measure);
    const { jobId: arrayId } = splitRef(marker);
    const record = accounted === "unknown" ? undefined : accounted.get(marker) ?? cancelledPending(marker);
    const seen = listed.get(measure.name) ?? null;
    // no record yet is not gone: a job submitted moments ago, or a task whose array is still listed;
    // a listed job is live whatever its accounting says, so its marker's age is not asked (a stat a measure)
    const unknownWhy = listing === "unknown" || accounted === "unknown" || record !== undefined || seen !== null
      ? undefined
      : liveArrays.has(arrayId) && arrayId !== marker
      ? `array job ${arrayId} is queued; this task is not listed yet`
      : dir.markerMs !== null && ctx.o.now() - dir.markerMs < NO_RECORD_GRACE_MS
      ? "just submitted; not in the queue listing yet"
      : undefined;
    // past the grace a task with no row never started: it was cancelled while pending
    const gone = unknownWhy === undefined && isTaskId(marker) ? CANCELLED_PENDING : "GONE";
    const observation: Observation = {
      done: dir.exitCode !== null,
      marker,
      listed: seen,
      accounted: accounted === "unknown" ? "unknown" : record ?? (unknownWhy === undefined ? gone : "unknown"),
      ...(unknownWhy === undefined ? {} : { unknownWhy }),
    };
    return { measure, observation, state: classifyMeasure(observation), dir };
  });
}

/**
 * For each array of a task the listing misses while its array is not
 * listed either, one task of the same array that this look saw finish (its
 * `A_T` marker): asked in the same sacct, it tells "accounting knows this
 * array" from "accounting lags".
 */
function witnessesOf(
  ctx: MeasurerContext,
  measures: readonly Measure[],
  unlisted: readonly Measure[],
  liveArrays: ReadonlySet<string>,
): Map<string, string> {
  const wanted = new Set(
    unlisted.map((m) => ctx.marker(m)).filter((r) => isTaskId(r) && !liveArrays.has(splitRef(r).jobId))
      .map((r) => splitRef(r).jobId),
  );
  const out = new Map<string, string>();
  if (wanted.size === 0) return out;
  for (const m of measures) {
    const ref = ctx.marker(m);
    const array = splitRef(ref).jobId;
    if (isTaskId(ref) && wanted.has(array) && !out.has(array) && ctx.dir(m).exitCode !== null) out.set(array, ref);
  }
  return out;
}
