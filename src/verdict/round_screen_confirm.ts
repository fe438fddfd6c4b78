import type { Contract, Scale } from "../contract/contract.ts";
import { BASE_ARM, benchmarkName, CANDIDATE_ARM } from "../measure/measure_name.ts";
import { siblingCall, type Verdict } from "../stats/look_rule.ts";
import { STUDENT_T } from "../stats/location_interval.ts";
import type { RelativeEstimate } from "../stats/relative.ts";
import type { PairedInterval } from "../stats/paired.ts";
import { type Screen, SCREEN_RULES, screenCandidates, type ScreenRules } from "../stats/round_screen.ts";
import { designOf, SPENDING_POWER } from "../stats/sequential.ts";
import { decideLook, type Estimate, type LookDecision, type PairedValues } from "./decide.ts";
import type {
  CallWithCrashes,
  CandidateCall,
  CrashedArms,
  RoundDecision,
  RoundDecisionWithCrashes,
  RoundNext,
  RoundOptions,
} from "./round.ts";
import { type CandidateVerdict, crashedDecision, crashedReason } from "./crashed.ts";
import {
  confirmReason,
  nextConfirmReason,
  nextScreenReason,
  roundReason,
  screenCallReason,
  screenReason,
} from "./round_reasons.ts";
import {
  comparedSeries,
  readRoundSeries,
  roundInterval,
  type RoundSeries,
  valuesAndDeltas,
  watchedOf,
} from "./round_series.ts";
import { type JudgedSide, judgedSide } from "./judged_side.ts";
import type { Watched } from "./reasons.ts";
import { pairMeasureName } from "../measure/measure_name.ts";

/**
 * Screen, then confirm on fresh seeds: the procedure `decideRound` ships (its
 * doc in round.ts states the rule and the guarantee). This file replays the
 * round from its values — the screen's steps, then the confirmation's looks —
 * checks that every candidate was measured exactly on the pairs the round
 * asked for, and decides the look the values reach. The confirmation is
 * `decideLook` itself on the confirmation's pairs, so a round of one
 * candidate, which has nothing to screen, is `decideLook` on all of them.
 */

/** The screen's two parts of the first batch: ⌈repeats/2⌉ pairs of every candidate, then ⌊repeats/2⌋ of those in reach. */
function screenSplit(repeats: number): { readonly first: number; readonly second: number } {
  return { first: Math.ceil(repeats / 2), second: Math.floor(repeats / 2) };
}

/** The first batch of a round of k. */
export function planScreenConfirm(contract: Contract, k: number): RoundNext {
  if (k === 1) {
    return {
      kind: "more",
      pairs: contract.repeats,
      firstPair: 1,
      arms: [CANDIDATE_ARM],
      stage: "confirm",
      fresh: false,
    };
  }
  const arms = Array.from({ length: k }, (_, i) => i + 1);
  return {
    kind: "more",
    pairs: screenSplit(contract.repeats).first,
    firstPair: 1,
    arms,
    stage: "screen",
    fresh: false,
  };
}

/** One screen step: the screen itself, and each candidate's descriptive intervals over its screen pairs. */
interface Step {
  readonly pairs: number;
  readonly screen: Screen;
  readonly bench: ReadonlyMap<number, PairedInterval>;
  /** The benchmark on the scale of min_effect (the log ratio for a relative one). */
  readonly judged: ReadonlyMap<number, JudgedSide>;
  /** Each sibling's, then each guard's, on the scale of its tolerance. */
  readonly sibs: ReadonlyMap<number, JudgedSide[]>;
  readonly regressed: ReadonlyMap<number, readonly Watched[]>;
}

/** The screen's words for a judged quantity: Student t, descriptive. */
const SCREEN_METHOD = "screen, paired Student t (descriptive: the screen chooses, it does not decide)";

function screenStep(
  contract: Contract,
  series: RoundSeries,
  arms: readonly number[],
  pairs: number,
  last: boolean,
  rules: ScreenRules,
): Step {
  const bench = new Map<number, PairedInterval>();
  const judged = new Map<number, JudgedSide>();
  const sibs = new Map<number, JudgedSide[]>();
  const regressed = new Map<number, Watched[]>();
  const watched = watchedOf(contract);
  const judge = (arm: number, i: number | null, scale: Scale, threshold: number) =>
    judgedSide(
      comparedSeries(contract, series, arm, i, 0, pairs),
      scale,
      threshold,
      contract.confidence,
      pairMeasureName,
      STUDENT_T,
      SCREEN_METHOD,
    );
  let threshold = contract.minEffect;
  const inputs = arms.map((arm) => {
    bench.set(arm, roundInterval(comparedSeries(contract, series, arm, null, 0, pairs), contract.confidence, 0));
    const main = judge(arm, null, contract.minEffectScale, contract.minEffect);
    judged.set(arm, main);
    threshold = main.threshold;
    const ivs = watched.map((w, i) => judge(arm, i, w.toleranceScale, w.tolerance));
    sibs.set(arm, ivs);
    const beyond = watched.filter((_, i) => ivs[i]!.judged.mean < -ivs[i]!.threshold);
    regressed.set(arm, beyond.map((w) => ({ kind: w.kind, name: w.name })));
    return { arm, improvements: [...main.judgedImprovements], regressedSiblings: beyond.map((w) => w.name) };
  });
  return { pairs, screen: screenCandidates(inputs, threshold, last, rules), bench, judged, sibs, regressed };
}

/** A screen interval as an estimate: descriptive, since the screen chooses rather than decides. */
function screenEstimate(iv: PairedInterval, relative: RelativeEstimate | null): Estimate {
  return {
    n: iv.n,
    mean: iv.mean,
    lower: iv.lower,
    upper: iv.upper,
    confidence: iv.level,
    method: SCREEN_METHOD,
    setAside: [],
    relative,
  };
}

/** The confirmation's values under a single run's names: pair 1 of the confirmation is `baseline`/`candidate`. */
function confirmValues(contract: Contract, series: RoundSeries, arm: number, from: number, to: number): PairedValues {
  const base = series.arms[BASE_ARM]!;
  const cand = series.arms[arm]!;
  const out: Record<string, number[]> = {
    [benchmarkName(BASE_ARM)]: base.bench.slice(from, to),
    [benchmarkName(CANDIDATE_ARM)]: cand.bench.slice(from, to),
  };
  watchedOf(contract).forEach((w, i) => {
    out[w.nameOf(BASE_ARM)] = base.siblings[i]!.slice(from, to);
    out[w.nameOf(CANDIDATE_ARM)] = cand.siblings[i]!.slice(from, to);
  });
  return out;
}

/** A round of one: `decideLook` itself, with the round's shape around it. */
function single(contract: Contract, values: PairedValues, options: RoundOptions): RoundDecision {
  const d = decideLook(contract, values, options.decide);
  const final = d.next.kind === "final";
  const n = d.benchmark.n;
  const call: CandidateCall = {
    arm: CANDIDATE_ARM,
    verdict: d.verdict,
    standing: final ? "decided" : "in-play",
    because: final ? d.outcome : null,
    pairs: n,
    screen: null,
    estimate: d.benchmark,
    siblings: d.siblings,
    guards: d.guards,
    reason: d.reasons[0]!,
  };
  return {
    candidates: 1,
    procedure: "screen-confirm",
    verdict: d.verdict,
    winner: d.verdict === "accept" ? { arm: CANDIDATE_ARM, estimate: d.benchmark, firstPair: 1, lastPair: n } : null,
    calls: [call],
    next: d.next.kind === "more"
      ? { kind: "more", pairs: d.next.pairs, firstPair: n + 1, arms: [CANDIDATE_ARM], stage: "confirm", fresh: false }
      : { kind: "final" },
    values: d.values,
    deltas: d.deltas,
    reasons: d.reasons,
  };
}

/** A `RangeError` for values that are not at a look of the round. */
function notALook(n: number, why: string): RangeError {
  return new RangeError(`Cannot decide a round at ${n} pairs: ${why}`);
}

/** The verdict of a candidate the screen dropped: reject when its screen shows no improvement or a sibling regressed. */
function droppedVerdict(step: Step, arm: number): Verdict {
  const sibs = step.sibs.get(arm)!;
  const regressed = sibs.some((j) => siblingCall(j.judged, j.threshold) === "regressed");
  return step.judged.get(arm)!.judged.upper <= 0 || regressed ? "reject" : "inconclusive";
}

/** Decides a round by screen-then-confirm (see round.ts). */
export function decideScreenConfirm(
  contract: Contract,
  k: number,
  values: PairedValues,
  options: RoundOptions,
): RoundDecision {
  // with no crashed arm no call or verdict can be "crashed": the narrow type holds by construction
  return screenConfirm(contract, k, values, options, new Map()) as RoundDecision;
}

/** `decideScreenConfirm` given crashed candidates (see `decideRound`). */
export function decideScreenConfirmWithCrashes(
  contract: Contract,
  k: number,
  values: PairedValues,
  options: RoundOptions,
  crashed: CrashedArms,
): RoundDecisionWithCrashes {
  return screenConfirm(contract, k, values, options, crashed);
}

/** A round of one whose candidate crashed: its crash decision, with the round's shape around it. */
function singleCrashed(
  contract: Contract,
  values: PairedValues,
  crash: { readonly pair: number; readonly cause: string; readonly measure?: string },
): RoundDecisionWithCrashes {
  const measure = crash.measure ?? benchmarkName(CANDIDATE_ARM, crash.pair);
  const d = crashedDecision(contract, values, { measure, cause: crash.cause });
  return {
    candidates: 1,
    procedure: "screen-confirm",
    verdict: "crashed",
    winner: null,
    calls: [{
      arm: CANDIDATE_ARM,
      verdict: "crashed",
      standing: "dropped",
      because: "crashed",
      pairs: crash.pair - 1,
      screen: null,
      estimate: null,
      siblings: {},
      reason: d.reasons[0]!,
    }],
    next: { kind: "final" },
    values: d.values,
    deltas: d.deltas,
    reasons: d.reasons,
  };
}

function screenConfirm(
  contract: Contract,
  k: number,
  values: PairedValues,
  options: RoundOptions,
  crashed: CrashedArms,
): RoundDecisionWithCrashes {
  for (const [arm, c] of crashed) {
    if (!(Number.isInteger(arm) && arm >= 1 && arm <= k && Number.isInteger(c.pair) && c.pair >= 1)) {
      throw new RangeError(`A crashed arm is one of 1..${k} with a pair >= 1, got arm ${arm}, pair ${c.pair}`);
    }
  }
  if (k === 1) {
    const crash = crashed.get(CANDIDATE_ARM);
    return crash === undefined ? single(contract, values, options) : singleCrashed(contract, values, crash);
  }
  const rules = options.screen ?? SCREEN_RULES;
  const series = readRoundSeries(contract, k, values);
  const n = series.arms[BASE_ARM]!.bench.length;
  const { first, second } = screenSplit(contract.repeats);
  if (n < first) throw notALook(n, `its screen measures ${first} pairs of every candidate first`);
  const all = Array.from({ length: k }, (_, i) => i + 1);
  /** Whether `arm` crashed on one of pairs 1..pairs. */
  const crashedBy = (arm: number, pairs: number) => (crashed.get(arm)?.pair ?? Infinity) <= pairs;
  const steps: Step[] = [];
  const firstArms = all.filter((a) => !crashedBy(a, first));
  if (firstArms.length > 0) steps.push(screenStep(contract, series, firstArms, first, second === 0, rules));
  const inReach = (steps[0]?.screen.calls ?? []).filter((c) => c.dropped === null).map((c) => c.arm);
  let next: RoundNext | null = null;
  if (inReach.length >= 2) {
    const going = inReach.filter((a) => !crashedBy(a, n));
    if (n === first) {
      if (going.length > 0) {
        next = { kind: "more", pairs: second, firstPair: first + 1, arms: going, stage: "screen", fresh: false };
      }
    } else if (n < first + second) throw notALook(n, `the screen's second part ends at ${first + second} pairs`);
    else {
      const secondArms = inReach.filter((a) => !crashedBy(a, first + second));
      if (secondArms.length > 0) steps.push(screenStep(contract, series, secondArms, first + second, true, rules));
    }
  }
  const lastStep = steps[steps.length - 1];
  const leader = lastStep?.screen.leader ?? null;
  const screenEnd = lastStep?.pairs ?? first;
  const chosen = next === null && !(leader !== null && crashedBy(leader, n)) ? leader : null;
  const chosenCrashed = next === null && leader !== null && crashedBy(leader, n);
  if (next === null && chosen === null && n > screenEnd && !chosenCrashed) {
    throw notALook(n, `the round ended after ${screenEnd} pairs`);
  }
  if (next === null && chosen !== null && n === screenEnd) {
    next = { kind: "more", pairs: contract.repeats, firstPair: n + 1, arms: [chosen], stage: "confirm", fresh: true };
  }
  const confirmed = chosen !== null && n > screenEnd ? confirm(contract, series, chosen, screenEnd, n, options) : null;

  // every candidate measured exactly on the pairs the round asked for (a crashed one: those before its crash)
  const measured = new Map<number, number>();
  steps.forEach((s) => s.screen.calls.forEach((c) => measured.set(c.arm, s.pairs)));
  if (next?.kind === "more") next.arms.forEach((a) => measured.set(a, n));
  if (chosen !== null) measured.set(chosen, n);
  for (const [arm, c] of crashed) measured.set(arm, c.pair - 1);
  for (const a of all) {
    const got = series.arms[a]!.bench.length;
    if (got !== measured.get(a)) {
      throw new TypeError(
        `Cannot decide: measure "${benchmarkName(a)}" has ${got} values; the round measured it on pairs 1–${
          measured.get(a)
        }`,
      );
    }
  }

  const stepOf = (arm: number) => [...steps].reverse().find((s) => s.screen.calls.some((c) => c.arm === arm));
  const calls: CallWithCrashes[] = all.map((arm): CallWithCrashes => {
    const step = stepOf(arm);
    const crash = crashed.get(arm);
    if (crash !== undefined) {
      return {
        arm,
        verdict: "crashed",
        standing: "dropped",
        because: "crashed",
        pairs: crash.pair - 1,
        screen: step === undefined ? null : screenEstimate(step.bench.get(arm)!, step.judged.get(arm)!.relative),
        estimate: null,
        siblings: {},
        reason: crashedReason({ measure: crash.measure ?? benchmarkName(arm, crash.pair), cause: crash.cause }),
      };
    }
    if (step === undefined) throw new TypeError(`Cannot decide: candidate ${arm} was in no screen look`);
    const c = step.screen.calls.find((x) => x.arm === arm)!;
    const screen = screenEstimate(step.bench.get(arm)!, step.judged.get(arm)!.relative);
    const base = { arm, pairs: measured.get(arm)!, screen };
    if (arm === chosen && confirmed !== null) {
      const final = confirmed.next.kind === "final";
      return {
        ...base,
        verdict: confirmed.verdict,
        standing: final ? "decided" : "in-play",
        because: final ? confirmed.outcome : null,
        estimate: confirmed.benchmark,
        siblings: confirmed.siblings,
        guards: confirmed.guards,
        reason: confirmed.reasons[0]!,
      };
    }
    const reason = screenCallReason(c, step.screen, rules, contract, step.regressed.get(arm) ?? []);
    if (c.dropped === null) {
      return {
        ...base,
        verdict: "inconclusive",
        standing: "in-play",
        because: null,
        estimate: null,
        siblings: {},
        reason,
      };
    }
    return {
      ...base,
      verdict: droppedVerdict(step, arm),
      standing: "dropped",
      because: c.dropped,
      estimate: null,
      siblings: {},
      reason,
    };
  });

  const reasons = [
    roundReason(contract, k),
    ...steps.map((s, i) => screenReason(contract, s.screen, i === 0 ? 1 : first + 1, s.pairs, rules, s.regressed)),
  ];
  if (confirmed !== null) {
    reasons.push(confirmReason(chosen!, screenEnd, n, confirmed.verdict === "accept"), ...confirmed.reasons);
    if (confirmed.next.kind === "more") {
      next = {
        kind: "more",
        pairs: confirmed.next.pairs,
        firstPair: n + 1,
        arms: [chosen!],
        stage: "confirm",
        fresh: true,
      };
    }
  } else if (next?.kind === "more") {
    reasons.push(
      next.stage === "screen"
        ? nextScreenReason(next.arms, next.firstPair, next.pairs)
        : nextConfirmReason(next.arms[0]!, next.firstPair, next.pairs),
    );
  }
  if (crashed.size > 0) reasons.push(...calls.filter((c) => c.verdict === "crashed").map((c) => c.reason));
  const won = confirmed?.verdict === "accept";
  const verdict: CandidateVerdict = won
    ? "accept"
    : calls.every((c) => c.verdict === "crashed")
    ? "crashed"
    : calls.every((c) => c.verdict === "reject" || c.verdict === "crashed")
    ? "reject"
    : "inconclusive";
  return {
    candidates: k,
    procedure: "screen-confirm",
    verdict,
    winner: won ? { arm: chosen!, estimate: confirmed!.benchmark, firstPair: screenEnd + 1, lastPair: n } : null,
    calls,
    next: next ?? { kind: "final" },
    ...valuesAndDeltas(contract, series),
    reasons,
  };
}

/**
 * The chosen candidate's confirmation at `n` pairs: `decideLook` on pairs
 * screenEnd+1..n alone, after checking that every earlier look of the
 * confirmation asked for more (a `RangeError` otherwise) and that no value
 * overflows (an `EvalError` naming the round's measures).
 */
function confirm(
  contract: Contract,
  series: RoundSeries,
  arm: number,
  screenEnd: number,
  n: number,
  options: RoundOptions,
): LookDecision {
  const m = n - screenEnd;
  const design = designOf(contract, options.decide?.spendingPower ?? SPENDING_POWER);
  const at = design.looks.map((l) => l.n);
  if (!at.includes(m)) {
    throw notALook(
      n,
      `a confirmation after ${screenEnd} screen pairs looks at ${at.map((x) => x + screenEnd).join(", ")}`,
    );
  }
  roundInterval(comparedSeries(contract, series, arm, null, screenEnd, n), contract.confidence, screenEnd);
  watchedOf(contract).forEach((_, i) =>
    roundInterval(comparedSeries(contract, series, arm, i, screenEnd, n), contract.confidence, screenEnd)
  );
  for (const earlier of at.filter((x) => x < m)) {
    const d = decideLook(
      contract,
      confirmValues(contract, series, arm, screenEnd, screenEnd + earlier),
      options.decide,
    );
    if (d.next.kind === "final") throw notALook(n, `the confirmation ended after ${screenEnd + earlier} pairs`);
  }
  return decideLook(contract, confirmValues(contract, series, arm, screenEnd, n), options.decide);
}
