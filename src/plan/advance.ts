import type { Measure } from "../measure/measure.ts";
import { BASE_ARM, parseMeasureName } from "../measure/measure_name.ts";
import { type CrashedDecision, crashedDecisionByName } from "../verdict/crashed.ts";
import { decideLook, type DecideOptions, type LookDecision } from "../verdict/decide.ts";
import type { CrashedArms, RoundDecisionWithCrashes } from "../verdict/round.ts";
import { pairedValues, type PassPlan, RoundSteps, type RunPlan } from "./run_plan.ts";

/**
 * How a run's looks advance — the one place it is written. A single
 * candidate's design is a schedule of looks (repeats, 2·repeats, …,
 * max_repeats pairs); a round's is a series of batches, each asked for by the
 * decision of the batches before it (verdict/round.ts). Given the values in
 * hand, the run stands at the first look whose measures are not all in, or
 * at the look that decides: that is what the pass measures next (or
 * concludes), what `show` lists, where an open round stands and what a
 * decision on disk is checked against. A pure function of the plan and the
 * values: the same values give the same answer in every process.
 */

/** The decision of one complete look (a round: of its batches so far), with the plan it was made on. */
export type LookStep =
  | {
    readonly kind: "look";
    readonly plan: PassPlan;
    /** 1-based, of `of` looks in the design. */
    readonly index: number;
    readonly of: number;
    readonly decision: LookDecision;
  }
  | { readonly kind: "round"; readonly plan: PassPlan; readonly decision: RoundDecisionWithCrashes }
  /** A single candidate whose measure crashed: final, and nothing it measured is judged. */
  | { readonly kind: "crashed"; readonly plan: PassPlan; readonly decision: CrashedDecision };

/**
 * The candidates' measures that crashed, by measure name, with the cause in
 * one line (a baseline's failure is the run's, never in here). A crash
 * decides at once: a single candidate's run is decided "crashed" at the look
 * it crashed in, whatever of the look is still out (the pass stops it), and
 * a round's crashed arm leaves play at the pair it crashed on
 * (verdict/round.ts), its measures from that pair on counted as over.
 */
export type CrashedMeasures = ReadonlyMap<string, string>;

/** Where the run's looks stand. */
export interface Advance {
  /** The look (a round: its batches so far) the run stands at. */
  readonly plan: PassPlan;
  /** The measures of `plan` without a value in hand (what the look still needs); empty once it is complete. */
  readonly missing: readonly Measure[];
  /** The decision at `plan` once every value of it is in; null while it is not. */
  readonly step: LookStep | null;
  /** Every complete look's decision on the way, in order (`step` last when there is one). */
  readonly walked: readonly LookStep[];
  /** `step` is final: the verdict stands. */
  readonly final: boolean;
}

/** Whether a look's decision asks for more pairs. */
function asksForMore(s: LookStep): boolean {
  return s.kind !== "crashed" && s.decision.next.kind === "more";
}

/**
 * Walks the looks from the first while their values are in hand (`values`
 * by measure name; the cache's are added from the plan), deciding each,
 * until one is incomplete or final. `options` are `decideLook`'s (a decision
 * on disk is checked by the method it names).
 */
export function advanceRun(
  plan: RunPlan,
  values: Readonly<Record<string, number>>,
  options: DecideOptions = {},
  crashed: CrashedMeasures = new Map(),
): Advance {
  const r = plan.record;
  const walked: LookStep[] = [];
  // a crashed candidate's measures from the pair it crashed on are over too: what they would give is never read
  // (beforeCrashes), and the pass stops those it can (fail fast), so a batch never waits on them
  // (each look's crashed arms found once: asked per measure, they made a pass over n measures cost n² name parses)
  const armsByPlan = new Map<PassPlan, CrashedArms>();
  const armsOf = (p: PassPlan) => {
    let arms = armsByPlan.get(p);
    if (arms === undefined) armsByPlan.set(p, arms = crashedArms(p, crashed));
    return arms;
  };
  const afterCrash = (p: PassPlan, m: Measure) => {
    if (crashed.size === 0) return false;
    const arms = armsOf(p);
    if (arms.size === 0) return false;
    const ref = parseMeasureName(m.name);
    if (ref === null || ref.arm === BASE_ARM) return false;
    const c = arms.get(ref.arm);
    return c !== undefined && ref.pair >= c.pair;
  };
  const known = (p: PassPlan, m: Measure) =>
    Object.hasOwn(p.cached, m.name) || Object.hasOwn(values, m.name) || crashed.has(m.name) || afterCrash(p, m);
  const at = (p: PassPlan, step: LookStep | null): Advance => ({
    plan: p,
    missing: p.toMeasure.filter((m) => !known(p, m)),
    step,
    walked,
    final: step !== null && !asksForMore(step),
  });
  const complete = (p: PassPlan) => p.plan.every((m) => known(p, m));
  if (r.candidates.length > 1) {
    const steps = new RoundSteps(r, plan.cache);
    for (;;) {
      const p = steps.plan;
      if (!complete(p)) return at(p, null);
      const arms = armsOf(p);
      const decision = steps.advance(beforeCrashes(p, { ...p.cached, ...values }, arms), arms);
      const step: LookStep = { kind: "round", plan: p, decision };
      walked.push(step);
      if (!asksForMore(step)) return at(p, step);
    }
  }
  const looks = plan.design.looks;
  for (const [i, look] of looks.entries()) {
    const p = plan.look(look.n);
    const crash = p.plan.find((m) => crashed.has(m.name));
    if (crash !== undefined) {
      // the candidate crashed: the verdict at once (fail fast: the pass stops what is left of the look),
      // nothing it measured judged; the values in hand before the crash are kept
      const kept = beforeCrashes(p, { ...p.cached, ...values }, armsOf(p));
      const decision = crashedDecisionByName(r.contract, look.n, kept, {
        measure: crash.name,
        cause: crashed.get(crash.name)!,
      });
      const step: LookStep = { kind: "crashed", plan: p, decision };
      walked.push(step);
      return at(p, step);
    }
    if (!complete(p)) return at(p, null);
    const decision = decideLook(
      r.contract,
      pairedValues(p.plan, { ...p.cached, ...values }, r.contract.guards),
      options,
    );
    const step: LookStep = { kind: "look", plan: p, index: i + 1, of: looks.length, decision };
    walked.push(step);
    if (!asksForMore(step) || i === looks.length - 1) return at(p, step);
  }
  throw new Error("A design without looks");
}

/**
 * The decision of the look at `pairs` pairs from `values` (every value of
 * its plan must be in hand): what a decision resting on that look is checked
 * against, whatever the looks before it would say.
 */
export function decideAt(
  plan: RunPlan,
  pairs: number,
  values: Readonly<Record<string, number>>,
  options: DecideOptions = {},
): LookStep {
  const looks = plan.design.looks;
  const index = looks.findIndex((l) => l.n === pairs);
  if (index < 0) throw new RangeError(`No look at ${pairs} pair(s) in this design`);
  const p = plan.look(pairs);
  const decision = decideLook(
    plan.record.contract,
    pairedValues(p.plan, { ...p.cached, ...values }, plan.record.contract.guards),
    options,
  );
  return { kind: "look", plan: p, index: index + 1, of: looks.length, decision };
}

/** The candidates of `p` with a crashed measure: each arm's first crashed pair and its cause. */
function crashedArms(p: PassPlan, crashed: CrashedMeasures): CrashedArms {
  const arms = new Map<number, { pair: number; cause: string; measure: string }>();
  for (const m of p.plan) {
    const cause = crashed.get(m.name);
    const ref = parseMeasureName(m.name);
    if (cause === undefined || ref === null || ref.arm === BASE_ARM) continue;
    const earlier = arms.get(ref.arm);
    if (earlier === undefined || ref.pair < earlier.pair) arms.set(ref.arm, { pair: ref.pair, cause, measure: m.name });
  }
  return arms;
}

/** `values` without what a crashed arm measured from the pair it crashed on: its series hold the pairs before. */
function beforeCrashes(
  p: PassPlan,
  values: Readonly<Record<string, number>>,
  arms: CrashedArms,
): Record<string, number> {
  if (arms.size === 0) return { ...values };
  const out: Record<string, number> = {};
  for (const m of p.plan) {
    const ref = parseMeasureName(m.name);
    const crash = ref === null ? undefined : arms.get(ref.arm);
    if (crash !== undefined && ref!.pair >= crash.pair) continue;
    if (Object.hasOwn(values, m.name)) out[m.name] = values[m.name]!;
  }
  return out;
}
