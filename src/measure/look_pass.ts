import { splitRef } from "../compute/array.ts";
import { runsFrom } from "../compute/job_owner.ts";
import { isTerminal } from "../compute/states.ts";
import { writeRoomNote } from "../dispatch/room_note.ts";
import type { Provenance } from "../dispatch/provenance.ts";
import { log } from "../log.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import type { LookResults, MeasureFailure } from "./look_results.ts";
import type { Measure } from "./measure.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import type { MeasureView } from "./observe.ts";
import { failIfHostsDiffer } from "./pair_hosts.ts";
import { ended, type Outcome, readOutcomes } from "./read_look.ts";
import { earlierJob } from "./recovery.ts";
import { resendIfNobodysCode } from "./resend.ts";
import type { Sent } from "./submit_limits.ts";

/**
 * One look, in order: the outcome of every done or ended measure
 * (read_look.ts); the units whose job ended for a cause that is nobody's code
 * set aside and made undispatched (resend.ts); pair jobs whose measures ran
 * on two hosts failed (pair_hosts.ts); then, per measure in dispatch order, a
 * live job parked on, an undispatched unit adopted (recovery.ts) or
 * dispatched (dispatch.ts); jobs already over right after their submission
 * judged from one batched sacct. The scheduler is the source of truth for
 * liveness — a job named for the measure in one listing — never just the
 * local marker, so a submitter that died before recording an id cannot
 * cause a duplicate.
 */
export class LookPass {
  readonly #ctx: MeasurerContext;
  readonly #measures: readonly Measure[];
  readonly #views: readonly MeasureView[];
  readonly #ours: ReadonlySet<string>;
  readonly #dispatch: (ctx: MeasurerContext, units: readonly DispatchUnit[]) => Promise<Sent>;
  #outcomes = new Map<string, Outcome>();
  /** The measures whose job the listing shows. */
  readonly #live: ReadonlySet<string>;
  /** Units made undispatched by this pass: their job ended for a cause that is nobody's code. */
  readonly #resent = new Set<DispatchUnit>();
  readonly #pending: string[] = [];
  /** Some measure is pending with no job id to wait on. */
  #blind = false;

  constructor(
    ctx: MeasurerContext,
    measures: readonly Measure[],
    views: readonly MeasureView[],
    ours: ReadonlySet<string>,
    dispatch: (ctx: MeasurerContext, units: readonly DispatchUnit[]) => Promise<Sent>,
  ) {
    this.#ctx = ctx;
    this.#measures = measures;
    this.#views = views;
    this.#live = new Set(views.filter((v) => v.state.kind === "live").map((v) => v.measure.name));
    this.#ours = ours;
    this.#dispatch = dispatch;
  }

  async run(): Promise<LookResults> {
    const ctx = this.#ctx;
    this.#outcomes = await readOutcomes(ctx, this.#views, this.#ours);
    const units = ctx.units(this.#measures);
    for (const u of units) {
      if (resendIfNobodysCode(ctx, u, this.#outcomes, u.members.some((m) => this.#live.has(m.name)))) {
        this.#resent.add(u);
      }
    }
    for (const u of units) failIfHostsDiffer(ctx, u, this.#outcomes);
    const order = new Map(units.flatMap((u, i) => u.members.map((m) => [m.name, i] as const)));
    const inOrder = [...this.#views].sort((a, b) => order.get(a.measure.name)! - order.get(b.measure.name)!);
    const dispatched: { m: Measure; jobId: string }[] = [];
    const handled = new Set<DispatchUnit>();
    const toDispatch: DispatchUnit[] = [];
    for (const { measure: m, state } of inOrder) {
      const u = ctx.unit(m);
      if (this.#resent.has(u) || state.kind === "undispatched") {
        // a pair job is dispatched once for all its measures
        if (handled.has(u)) continue;
        handled.add(u);
        const earlier = await earlierJob(ctx, u);
        if (earlier === "unknown") this.#blind = true;
        else if (earlier !== null) {
          // an adopted job may have ended already: checked with the fresh ones, below
          for (const x of u.members) dispatched.push({ m: x, jobId: earlier });
        } else toDispatch.push(u);
      } else if (state.kind === "live") {
        this.#pending.push(state.job.arrayId ?? state.job.id);
        if (!runsFrom(state.job, ctx.o.root)) {
          log.warn(
            `measure ${m.name} waits on job ${state.job.id}, which has its job name but runs ` +
              `${JSON.stringify(state.job.script)}, outside this run dir: another run with the same run tag and ` +
              "the same measure; this one is dispatched here once that job ends (give runs distinct --run-tag values)",
          );
        }
      } else if (state.kind === "unlisted") this.#pending.push(splitRef(state.jobId).jobId);
      else if (state.kind === "unknown") {
        if (state.jobId) this.#pending.push(splitRef(state.jobId).jobId);
        else this.#blind = true;
      }
    }
    const sent = await this.#dispatch(ctx, toDispatch);
    for (const [u, jobId] of sent.jobs) for (const m of u.members) dispatched.push({ m, jobId });
    this.#noteRoom(sent);
    await this.#judgeFresh(dispatched);
    return this.#results(sent.waiting.length > 0);
  }

  /** Jobs sent or adopted this pass: read when done (a synchronous backend), else judged by one sacct. */
  async #judgeFresh(dispatched: readonly { m: Measure; jobId: string }[]): Promise<void> {
    const ctx = this.#ctx;
    const doneNow = dispatched.filter((d) => ctx.dir(d.m).recheckExitCode() !== null);
    const open = dispatched.filter((d) => ctx.dir(d.m).exitCode === null);
    if (doneNow.length > 0) {
      const views = doneNow.map((d): MeasureView => ({
        measure: d.m,
        observation: { done: true, marker: d.jobId, listed: null, accounted: "unknown" },
        state: { kind: "done", jobId: d.jobId },
        dir: ctx.dir(d.m),
      }));
      for (const [name, o] of await readOutcomes(ctx, views, this.#ours)) this.#outcomes.set(name, o);
    }
    if (open.length === 0) return;
    let states = new Map<string, string>();
    try {
      states = await ctx.o.compute.statuses(open.map((d) => d.jobId), ctx.since([]));
    } catch {
      // status unknown right after submit is normal: park
    }
    for (const { m, jobId } of open) {
      const state = states.get(jobId) ?? "";
      const o = state && isTerminal(state) && ctx.dir(m).recheckExitCode() === null
        ? ended(ctx, m, jobId, state, this.#ours)
        : null;
      // a job over at once for a cause that is nobody's code is sent again by the next pass, which it wakes
      if (o === null || o.kind === "resend") this.#pending.push(splitRef(jobId).jobId);
      else this.#outcomes.set(m.name, o);
    }
  }

  /** The submit limit's note for `show`: written when units wait for room, removed once none do. */
  #noteRoom(sent: Sent): void {
    if (sent.waiting.length > 0) {
      log.info(
        `${sent.waiting.length} job(s) wait for room under the site's submit limit (${sent.limit}): submitted on a ` +
          "later pass, once jobs end",
      );
    }
    writeRoomNote(
      this.#ctx.o.root,
      sent.waiting.length > 0
        ? { limit: sent.limit, waiting: sent.waiting.length, at: new Date(this.#ctx.o.now()).toISOString() }
        : null,
    );
  }

  #results(waiting: boolean): LookResults {
    const ctx = this.#ctx;
    const values: Record<string, number> = {};
    const metrics: Record<string, Readonly<Record<string, number>>> = {};
    const failures: MeasureFailure[] = [];
    const cancelled: string[] = [];
    const jobIds: Record<string, string> = {};
    const provenance: Record<string, Provenance> = {};
    let blind = this.#blind;
    let soon = false;
    for (const m of this.#measures) {
      const o = this.#outcomes.get(m.name);
      const marker = ctx.marker(m);
      if (marker !== "") jobIds[m.name] = marker;
      if (o === undefined || o.kind === "resend") continue;
      if (o.kind === "value") {
        values[m.name] = o.value;
        metrics[m.name] = o.metrics;
        const p = ctx.dir(m).provenance;
        if (p !== null) provenance[m.name] = p;
      } else if (o.kind === "failed") failures.push(o.failure);
      else if (o.kind === "ours") cancelled.push(m.name);
      else if (o.jobId !== null) this.#pending.push(splitRef(o.jobId).jobId);
      else {
        blind = true;
        soon ||= o.soon === true;
      }
    }
    const ids = [...new Set(this.#pending)];
    const pending = ids.length > 0 || blind || waiting ? { jobIds: ids, blind: ids.length === 0, soon } : null;
    return { values, metrics, failed: failures, cancelled, pending, jobIds, provenance };
  }
}
