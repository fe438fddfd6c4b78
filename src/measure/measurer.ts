import { splitRef } from "../compute/array.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { setAsideAttempt } from "./attempts.ts";
import { dispatchAll } from "./dispatch.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import { LookPass } from "./look_pass.ts";
import type { LookOptions, LookResults, MeasureFailure } from "./look_results.ts";
import type { Measure } from "./measure.ts";
import { MeasurerContext, type MeasurerOptions } from "./measurer_context.ts";
import { type MeasureView, observe } from "./observe.ts";
import { MeasureFailedError } from "./measure_failed.ts";
import { MeasurementPending } from "./pending.ts";
import { type Outcome, readOutcomes } from "./read_look.ts";
import { log } from "../log.ts";

export type { MeasurerOptions } from "./measurer_context.ts";
export { type MeasureView, NO_RECORD_GRACE_MS } from "./observe.ts";
export type { Outcome } from "./read_look.ts";

/**
 * Submits and reads a run's measures as jobs on any Compute backend.
 * Stateless beyond the compute handle: all durable state is the eval jobs'
 * files in the run dir, so a fresh process on wake reads exactly what the
 * parked one submitted. On a synchronous backend every job is done when
 * checked, so nothing parks and a look flows straight through.
 *
 * The concerns live in their own modules: observe.ts (one listing, one
 * sacct → each measure's state), dispatch.ts (jobs and arrays),
 * submit_limits.ts (room, waiting), recovery.ts (adopting by name or
 * manifest), retry.ts, resend.ts and attempts.ts (sending again what ended
 * for a cause that is nobody's code, keeping each attempt), read_look.ts
 * and pair_hosts.ts (results and failures), eval_dir_state.ts (each eval
 * dir read once a pass); look_pass.ts runs them in order for one look, and
 * look_results.ts is what it reports.
 */
export class DispatchedMeasurer {
  readonly #ctx: MeasurerContext;

  constructor(options: MeasurerOptions) {
    this.#ctx = new MeasurerContext(options);
  }

  /** The units that run `measures` (their job names, scripts and markers), remembered for `marker`. */
  units(measures: readonly Measure[]): DispatchUnit[] {
    return this.#ctx.units(measures);
  }

  /** The job name the scheduler is asked about for a unit's liveness. */
  unitJobName(u: DispatchUnit): string {
    return this.#ctx.unitJobName(u);
  }

  /** The measure's durable identity (its eval dir is `eval-<slot>`). */
  slot(m: Measure): string {
    return this.#ctx.slot(m);
  }

  /** The job name the scheduler is asked about for liveness. */
  jobName(m: Measure): string {
    return this.#ctx.jobName(m);
  }

  /** The measure's eval dir. */
  evalDir(m: Measure): string {
    return this.#ctx.evalDir(m);
  }

  /** Finished: the job wrote its exit code (always last). Read afresh. */
  done(m: Measure): boolean {
    return this.#fresh().done(m);
  }

  /**
   * The job id recorded at dispatch, or "": the measure's own marker, or for
   * a measure of a pair job, the pair job's. Read afresh (a look's
   * `jobIds` has them without a read).
   */
  marker(m: Measure): string {
    return this.#fresh().marker(m);
  }

  /**
   * What the scheduler and the run dir say of each measure (observe.ts): at
   * most ONE queue listing and ONE batched sacct, each eval dir read once.
   */
  async observe(measures: readonly Measure[]): Promise<MeasureView[]> {
    return await observe(this.#ctx, measures);
  }

  /**
   * What each done or ended measure of `views` (this measurer's last
   * `observe`) comes to, as a look would judge it — its value, its failure,
   * sent again, or cancelled by outerloop (read_look.ts `Outcome`) — with no
   * dispatch and no file written: what `show` says a pass would do.
   */
  async outcomes(views: readonly MeasureView[], options: LookOptions = {}): Promise<Map<string, Outcome>> {
    return await readOutcomes(this.#ctx, views, options.cancelledByUs ?? new Set());
  }

  /**
   * One look of `measures`: every done measure read, every ended one judged,
   * every undispatched one dispatched (or adopted), and what is left to wait
   * for (look_pass.ts). A measure's own failure is reported in `failed`, never
   * thrown, and changes nothing for the others: no job of another measure is
   * cancelled, every other measure is dispatched and read. Throws only for
   * the scheduler (ComputeError and its kin: a dispatch refused), the run
   * (a cancel seen by `beforeDispatch`) and bugs.
   */
  async look(measures: readonly Measure[], options: LookOptions = {}): Promise<LookResults> {
    const views = await observe(this.#ctx, measures);
    return await new LookPass(this.#ctx, measures, views, options.cancelledByUs ?? new Set(), dispatchAll).run();
  }

  /**
   * Every measure's value, or PARK (MeasurementPending) / FAIL (EvalError of
   * the first failed measure, in the look's order): `look` as the pass that
   * fails a run on any failure wants it. Kept for that pass; `look` is the
   * interface.
   */
  async results(measures: readonly Measure[], options: LookOptions = {}): Promise<Record<string, number>> {
    const r = await this.look(measures, options);
    const first = r.failed[0];
    if (first !== undefined) throw new MeasureFailedError(first);
    if (r.pending !== null) throw new MeasurementPending(r.pending.jobIds);
    if (r.cancelled.length > 0) throw new EvalError(`measure ${r.cancelled[0]}: its job was cancelled by outerloop`);
    return r.values;
  }

  /**
   * Makes the `failed` measures of the look `measures` undispatched again,
   * for a later pass to send afresh (what `resume --retry-failed` does once
   * the cause is fixed): each one's attempt is set aside into its eval dir's
   * `attempt-<n>/` (attempts.ts; its job never adopted again), with every
   * other measure of its pair job, which must run again beside it. Values
   * of other measures are kept. The names set aside, in the look's order.
   */
  forgetFailed(measures: readonly Measure[], failed: readonly MeasureFailure[]): string[] {
    const ctx = this.#ctx;
    ctx.beginPass(measures);
    const byName = new Map(failed.map((f) => [f.measure, f]));
    const done = new Set<DispatchUnit>();
    const out = new Set<string>();
    for (const m of measures) {
      const f = byName.get(m.name);
      const u = ctx.unit(m);
      if (f === undefined || done.has(u)) continue;
      done.add(u);
      const jobId = ctx.marker(m) || f.jobId || "none";
      setAsideAttempt(u.members.map((x) => ctx.evalDir(x)), ctx.unitMarkerPath(u), jobId, "forgotten", f.cause);
      ctx.reread(u);
      for (const x of u.members) out.add(x.name);
      log.info(`measure ${m.name}: its failed attempt (job ${splitRef(jobId).jobId}) is set aside; sent afresh next`);
    }
    return measures.map((m) => m.name).filter((n) => out.has(n));
  }

  /** The context for a read outside a pass: nothing remembered. */
  #fresh(): MeasurerContext {
    this.#ctx.clearReads();
    return this.#ctx;
  }
}
