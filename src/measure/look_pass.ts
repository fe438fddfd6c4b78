import { splitRef } from "../compute/array.ts";
import { runsFrom } from "../compute/job_owner.ts";
import { isTerminal } from "../compute/states.ts";
import { writeRoomNote } from "../dispatch/room_note.ts";
import type { Provenance } from "../dispatch/provenance.ts";
import { log } from "../log.ts";
import { setAsideAttempt } from "./attempts.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import type { LookResults, MeasureFailure } from "./look_results.ts";
import type { Measure } from "./measure.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import type { MeasureView } from "./observe.ts";
import { ended, failed, type Outcome, readOutcomes } from "./read_look.ts";
import { earlierJob } from "./recovery.ts";
import { MAX_RETRIES, nextRetry } from "./retry.ts";
import type { Sent } from "./submit_limits.ts";

/**
 * One look, in order: the outcome of every done or ended measure
 * (read_look.ts); the units whose job ended for a cause that is nobody's code
 * set aside and made undispatched (retry.ts, attempts.ts); pair jobs whose
 * measures ran on two hosts failed; then, per measure in dispatch order, a
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
    for (const u of units) this.#sendAgainIfNobodysCode(u);
    for (const u of units) this.#failIfHostsDiffer(u);
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

  /**
   * A unit whose job ended for a cause that is nobody's code (or whose
   * marker names a job already set aside: a pass died while setting it
   * aside) is set aside whole — a pair's measures run again together — and
   * made undispatched, while it has retries left; else each such measure
   * fails as `lost`.
   */
  #sendAgainIfNobodysCode(u: DispatchUnit): void {
    const ctx = this.#ctx;
    const dirs = u.members.map((m) => ctx.evalDir(m));
    const dead = u.members.flatMap((m) => {
      const o = this.#outcomes.get(m.name);
      return o?.kind === "resend" ? [{ m, o }] : [];
    });
    // a job set aside is over: a unit found live has none (and its lists need no read)
    const live = u.members.some((m) => this.#live.has(m.name));
    if (dead.length === 0 && live) return;
    const aside = ctx.setAside(u);
    const stale = u.members.map((m) => ctx.dir(m).marker).find((id) => id !== "" && aside.has(id));
    if (dead.length === 0) {
      if (stale === undefined) return;
      const as = u.members.some((m) => ctx.dir(m).forgotten.includes(stale)) ? "forgotten" : "retried";
      setAsideAttempt(dirs, ctx.unitMarkerPath(u), stale, as, "set aside by an earlier pass");
      this.#madeUndispatched(u);
      return;
    }
    const { m: first, o } = dead[0]!;
    const retry = nextRetry(ctx.dir(first).retried, o.jobId);
    if (retry === null) {
      for (const { m, o: d } of dead) {
        const why = `job ${d.jobId} ended ${d.endState} without a result, and it was sent again ${MAX_RETRIES} ` +
          "times already";
        this.#outcomes.set(m.name, failed(m, d.jobId, "lost", why, { message: `measure ${m.name}: ${why}` }));
      }
      return;
    }
    setAsideAttempt(dirs, ctx.unitMarkerPath(u), o.jobId, "retried", `job ${o.jobId} ended ${o.endState}`);
    this.#madeUndispatched(u);
    log.warn(
      `measure ${first.name}: job ${o.jobId} ended ${o.endState}, which is no fault of its code: sent again ` +
        `(retry ${retry} of ${MAX_RETRIES})`,
    );
  }

  #madeUndispatched(u: DispatchUnit): void {
    this.#ctx.reread(u);
    this.#resent.add(u);
    for (const m of u.members) this.#outcomes.delete(m.name);
  }

  /**
   * A pair job's measures ran on one host, or each fails as `pair-hosts`:
   * what makes a pair job worth having is that both sides of a comparison
   * shared a machine. Measures whose eval left no provenance (an older run
   * dir) are not judged.
   */
  #failIfHostsDiffer(u: DispatchUnit): void {
    if (u.mode === "one" || !u.members.every((m) => this.#outcomes.get(m.name)?.kind === "value")) return;
    const hosts = u.members.map((m) => ({ m, host: this.#ctx.dir(m).provenance?.host ?? "" }))
      .filter((h) => h.host !== "");
    if (new Set(hosts.map((h) => h.host)).size <= 1) return;
    const where = hosts.map((h) => `${h.m.name} on ${JSON.stringify(h.host)}`).join(", ");
    const why = `pair ${u.pair}: its ${u.mode} job's measures ran on different hosts (${where}), so they are no pair`;
    for (const m of u.members) {
      const message = `measure ${m.name}: ${why}; measure again in a new run dir`;
      this.#outcomes.set(m.name, failed(m, this.#ctx.marker(m) || null, "pair-hosts", why, { message }));
    }
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
      else blind = true;
    }
    const ids = [...new Set(this.#pending)];
    const pending = ids.length > 0 || blind || waiting ? { jobIds: ids, blind: ids.length === 0 } : null;
    return { values, metrics, failed: failures, cancelled, pending, jobIds, provenance };
  }
}
