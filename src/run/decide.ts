import type { Contract } from "./contract.ts";
import { pairMeasureName } from "../measure/pair_name.ts";
import { type ComparedSeries, finiteInterval } from "./finite_interval.ts";
import { FUTILITY_POWER, isFutile, predictivePower } from "../stats/futility.ts";
import {
  benchmarkCall,
  judgeLook,
  type LookKind,
  type SiblingCall,
  siblingCall,
  type Verdict,
} from "../stats/look_rule.ts";
import type { PairedInterval } from "../stats/paired.ts";
import {
  type Design,
  finalLook,
  type Look,
  lookAt,
  nextBatch,
  sequentialDesign,
  SPENDING_POWER,
} from "../stats/sequential.ts";

/**
 * The decision: whether the candidate beats the baseline on the climbed
 * benchmark without any suite sibling regressing past its tolerance, judged
 * from one or more seed-paired runs. A pure function of the contract and the
 * measured values, so the same numbers give the same verdict on every run and
 * in tests. The statistics live in src/stats/ (interval: paired.ts; looks and
 * levels: sequential.ts; early stop: futility.ts; the rule: look_rule.ts);
 * this file reads the values and writes the sentences. It runs past the
 * house's 150 lines because it words seven outcomes in two registers: the
 * single pair's sentences, kept word for word because runs and tests rely on
 * them, and the interval's.
 */

export type { Verdict } from "../stats/look_rule.ts";
export { pairMeasureName } from "../measure/pair_name.ts";

/**
 * The measured values, per measure name, pair 1 first: `baseline`,
 * `candidate`, `sib-<name>-base`, `sib-<name>-cand`. A plain number is a
 * single pair's value, which is how a one-pair run passes them.
 */
export type PairedValues = Readonly<Record<string, number | readonly number[]>>;

/** The mean improvement of the benchmark or of a sibling, with its interval at this look. */
export interface Estimate {
  /** Pairs it rests on. */
  readonly n: number;
  /** Mean improvement (positive = better, whatever the direction). */
  readonly mean: number;
  /** The interval's ends; the point [mean, mean] for one pair. */
  readonly lower: number;
  readonly upper: number;
  /** The interval's two-sided level at this look (the contract's confidence for a single look). */
  readonly confidence: number;
  /** The method, in words, as the reasons name it. */
  readonly method: string;
}

/** A sibling's estimate and where it stands against its tolerance. */
export interface SiblingEstimate extends Estimate {
  readonly standing: SiblingCall;
}

/** A verdict with the numbers behind it and the reasons, for people and for the decision file (its stored keys). */
export interface Decision {
  /** The verdict; provisional (always inconclusive) while a `LookDecision`'s `next.kind` is "more". */
  readonly verdict: Verdict;
  /** Every measure's value by measure name: pair 1 as `baseline`, `candidate`, `sib-<name>-base`, …, pair i ≥ 2 as `baseline#i`, … (see `pairMeasureName`). */
  readonly values: Readonly<Record<string, number>>;
  /** Candidate minus base per pair: `candidate`, `sib-<name>` for pair 1, `candidate#i`, `sib-<name>#i` after. */
  readonly deltas: Readonly<Record<string, number>>;
  /** Full sentences with the numbers: one for the benchmark, then one per sibling. */
  readonly reasons: readonly string[];
}

/**
 * What `decideLook` returns: the stored `Decision` plus the statistics of
 * the look and whether it is final — a caller measures `next.pairs` more
 * pairs and decides again while `next.kind` is "more".
 */
export interface LookDecision extends Decision {
  /** "final": the verdict stands. "more": measure `pairs` more pairs and decide again. */
  readonly next: { readonly kind: "final" } | { readonly kind: "more"; readonly pairs: number };
  /** Why this look ended as it did. */
  readonly outcome: LookKind;
  readonly benchmark: Estimate;
  readonly siblings: Readonly<Record<string, SiblingEstimate>>;
}

/** Tuning of the sequential rule; only the simulation changes these (the defaults are its choice). */
export interface DecideOptions {
  /** ρ of the α-spending function α·(n/max_repeats)^ρ; default `SPENDING_POWER`. */
  readonly spendingPower?: number;
  /** Stop for futility below this predictive power (0: never); default `FUTILITY_POWER`. */
  readonly futilityPower?: number;
}

/** The process exit code of each verdict (the CLI contract: 0, 10, 11). */
export const VERDICT_EXIT: Readonly<Record<Verdict, number>> = { accept: 0, reject: 10, inconclusive: 11 };

/** A number for a sentence: 12 significant digits, so `12.3 - 12.1` reads `0.2`, not `0.20000000000000107`. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** A level as a percentage for a sentence: 0.95 → "95%", 0.98333… → "98.33%". */
function percent(level: number): string {
  return `${Number((level * 100).toPrecision(4))}%`;
}

/** An estimate for a sentence: 4 significant digits (the decision's estimates keep every digit). */
function formatStat(x: number): string {
  return String(Number(x.toPrecision(4)));
}

/** A chance for a sentence: "37.2%", "less than 0.1%". */
function chance(p: number): string {
  return p < 0.001 ? "less than 0.1%" : `${Number((p * 100).toFixed(1))}%`;
}

/** The values of one measure over the pairs; a `TypeError` naming a missing or non-finite one (a caller bug). */
function seriesOf(values: PairedValues, name: string): number[] {
  const v = values[name];
  const list: (number | undefined)[] = typeof v === "number"
    ? [v]
    : v === undefined || v.length === 0
    ? [undefined]
    : [...v];
  return list.map((x, i) => {
    if (x === undefined || !Number.isFinite(x)) {
      const at = JSON.stringify(pairMeasureName(name, i + 1));
      throw new TypeError(`Cannot decide: measure ${at} has no finite value (got ${String(x)})`);
    }
    return x;
  });
}

/** One compared quantity (the benchmark or a sibling) over the pairs. */
type Side = ComparedSeries;

/** Single-pair facts, as today's sentences give them: `acc 10 -> 12, delta 2, higher is better`. */
function pairFacts(s: Side): string {
  const f = formatNumber;
  const better = s.direction === "maximize" ? "higher" : "lower";
  return `${s.metric} ${f(s.base[0]!)} -> ${f(s.cand[0]!)}, delta ${f(s.cand[0]! - s.base[0]!)}, ${better} is better`;
}

/** Several-pair facts: `acc mean improvement 0.42 over 8 pairs (98.33% CI 0.31 to 0.53), higher is better`. */
function meanFacts(s: Side, i: PairedInterval): string {
  const f = formatStat;
  const better = s.direction === "maximize" ? "higher" : "lower";
  return `${s.metric} mean improvement ${f(i.mean)} over ${i.n} pairs ` +
    `(${percent(i.level)} CI ${f(i.lower)} to ${f(i.upper)}), ${better} is better`;
}

/** The method's name for the reasons and the estimates. */
function methodOf(design: Design, look: Look, rho: number): string {
  if (look.n === 1 && !design.sequential) return "single pair, no interval";
  if (!design.sequential) return "paired Student t interval";
  const alpha = formatNumber(1 - design.confidence);
  const split = rho === 1
    ? "split over the looks in proportion to their pairs"
    : `spent as (n/${design.maxRepeats})^${rho}`;
  return `group-sequential paired Student t, look ${look.index} of ${design.looks.length}, alpha ${alpha} ${split} ` +
    `(${percent(design.confidence)} confidence over all looks together)`;
}

/** Everything the sentences draw on. */
interface Facts {
  readonly contract: Contract;
  readonly design: Design;
  readonly look: Look;
  readonly main: Side;
  readonly bench: PairedInterval;
  readonly method: string;
  readonly futilityPower: number;
}

/** `sibling "a"` or `siblings "a", "c"`. */
function siblingList(names: readonly string[]): string {
  return `sibling${names.length > 1 ? "s" : ""} ${names.map((n) => JSON.stringify(n)).join(", ")}`;
}

/** Today's single-pair sentence for the benchmark, word for word (runs and tests rely on it). */
function singlePairReason(kind: LookKind, x: Facts, regressed: readonly string[]): string {
  const f = formatNumber;
  const facts = pairFacts(x.main);
  const d = x.bench.mean;
  const m = f(x.contract.minEffect);
  switch (kind) {
    case "sibling-regressed":
      return `The candidate ${d > 0 ? "improved" : "did not improve"} on the benchmark (${facts}) but is rejected: ` +
        `${siblingList(regressed)} regressed.`;
    case "accepted":
      return `The candidate improved on the baseline by ${f(d)}, above min_effect ${m}: ${facts}.`;
    case "no-improvement":
      return `The candidate did not improve on the baseline: ${facts}.`;
    default:
      return `The candidate improved by ${f(d)}, at or below min_effect ${m}: ${facts}.`;
  }
}

/** The benchmark's sentence when the verdict rests on an interval (or is waiting for one). */
function pairedReason(kind: LookKind, next: number, x: Facts, regressed: string[], unsure: string[]): string {
  const m = formatNumber(x.contract.minEffect);
  const facts = meanFacts(x.main, x.bench);
  const n = x.bench.n;
  const more = `Another batch of ${next} pair${next > 1 ? "s" : ""} is needed`;
  const atMost = x.design.sequential ? `, the most max_repeats allows` : "";
  switch (kind) {
    case "first-pair":
      return `${more}: one pair (${pairFacts(x.main)}) gives no spread to judge it by, ` +
        `so a sequential verdict never decides on it.`;
    case "sibling-regressed":
      return `The candidate ${x.bench.mean > 0 ? "improved" : "did not improve"} on the benchmark (${facts}) ` +
        `but is rejected: ${siblingList(regressed)} regressed; ${x.method}.`;
    case "accepted":
      return `The candidate improved on the baseline, above min_effect ${m}: ${facts}; ${x.method}.`;
    case "no-improvement":
      return `The candidate did not improve on the baseline (the interval reaches no higher than 0): ${facts}; ` +
        `${x.method}.`;
    case "sibling-unsure": {
      const why = `${siblingList(unsure)} may have regressed beyond tolerance, though the benchmark clears ` +
        `min_effect ${m}: ${facts}; ${x.method}.`;
      return next > 0 ? `${more}: ${why}` : `Inconclusive after ${n} pairs${atMost}: ${why}`;
    }
    case "futile": {
      const last = finalLook(x.design);
      const pp = predictivePower(x.bench, last.n, last.level!, x.contract.minEffect);
      return `Stopped early for futility after ${n} of up to ${last.n} pairs, inconclusive: ${facts}; ` +
        `predicted from these pairs, the last look would clear min_effect ${m} with a chance of ${chance(pp)}, ` +
        `below the futility threshold ${percent(x.futilityPower)}; ${x.method}.`;
    }
    default: {
      const why =
        `the interval lies neither wholly above min_effect ${m} nor wholly at or below 0: ${facts}; ${x.method}.`;
      return next > 0 ? `${more}: ${why}` : `Inconclusive after ${n} pairs${atMost}: ${why}`;
    }
  }
}

/** A sibling's sentence; today's words for a single pair. */
function siblingReason(name: string, tolerance: number, side: Side, iv: PairedInterval, call: SiblingCall, x: Facts) {
  const tol = formatNumber(tolerance);
  const who = `Sibling ${JSON.stringify(name)}`;
  if (x.look.level === null) return `${who} is not judged on one pair: ${pairFacts(side)}.`;
  const facts = iv.n === 1 ? pairFacts(side) : meanFacts(side, iv);
  const how = call === "held" ? "held within" : call === "regressed" ? "regressed beyond" : "may have regressed beyond";
  return `${who} ${how} its tolerance ${tol}: ${facts}.`;
}

/** A side's improvements and their interval at `level`; an `EvalError` when they overflow (finite_interval.ts). */
function intervalOf(s: Side, level: number): PairedInterval {
  return finiteInterval(s, level, pairMeasureName);
}

/** The estimate as the decision carries it. */
function estimate(iv: PairedInterval, method: string): Estimate {
  return { n: iv.n, mean: iv.mean, lower: iv.lower, upper: iv.upper, confidence: iv.level, method };
}

/**
 * Decides from the measured values (per measure name, pair 1 first; see
 * `PairedValues`). A pair's improvement is candidate − baseline for a
 * maximized metric and baseline − candidate for a minimized one. The look at
 * n pairs (n must be on the contract's schedule: repeats, 2·repeats, …,
 * max_repeats) gives the benchmark and every sibling a Student t interval
 * [L, U] of the mean improvement at the look's level (src/stats/sequential.ts),
 * then, in order (src/stats/look_rule.ts):
 *
 * 1. one pair in a sequential design: another batch (no spread to judge by);
 * 2. a sibling with U < −tolerance rejects the candidate;
 * 3. a benchmark L > min_effect accepts it when every sibling has L ≥
 *    −tolerance; while a sibling is unsure, another batch (inconclusive at the last look);
 * 4. a benchmark U ≤ 0 rejects it;
 * 5. else inconclusive: at the last look, or when an accept is out of
 *    reasonable reach (src/stats/futility.ts); otherwise another batch.
 *
 * With one pair and max_repeats 1 the interval is the point [Δ, Δ] and this
 * is exactly the single-pair rule, with the same sentences: a sibling below
 * −tolerance rejects; Δ > min_effect accepts; Δ ≤ 0 rejects; else inconclusive.
 */
export function decideLook(contract: Contract, values: PairedValues, options: DecideOptions = {}): LookDecision {
  const rho = options.spendingPower ?? SPENDING_POWER;
  const futilityPower = options.futilityPower ?? FUTILITY_POWER;
  const design = sequentialDesign(contract.repeats, contract.maxRepeats, contract.confidence, rho);
  const side = (metric: string, direction: Side["direction"], base: string, cand: string): Side => ({
    metric,
    direction,
    baseName: base,
    candName: cand,
    base: seriesOf(values, base),
    cand: seriesOf(values, cand),
  });
  const main = side(contract.metric, contract.direction, "baseline", "candidate");
  const sibSides = contract.siblings.map((s) =>
    side(s.metric, s.direction, `sib-${s.name}-base`, `sib-${s.name}-cand`)
  );
  const n = main.base.length;
  const names = [
    "baseline",
    "candidate",
    ...contract.siblings.flatMap((s) => [`sib-${s.name}-base`, `sib-${s.name}-cand`]),
  ];
  const series = [main.base, main.cand, ...sibSides.flatMap((s) => [s.base, s.cand])];
  series.forEach((xs, i) => {
    if (xs.length !== n) {
      throw new TypeError(`Cannot decide: measure "${names[i]}" has ${xs.length} values, "baseline" has ${n}`);
    }
  });
  const look = lookAt(design, n);
  const level = look.level ?? contract.confidence;
  const method = methodOf(design, look, rho);
  const bench = intervalOf(main, level);
  const sibs = contract.siblings.map((sib, i) => {
    const iv = intervalOf(sibSides[i]!, level);
    return { sib, side: sibSides[i]!, iv, call: siblingCall(iv, sib.tolerance) };
  });
  const last = finalLook(design);
  const outcome = judgeLook({
    firstPairOnly: look.level === null,
    batch: nextBatch(design, n),
    benchmark: benchmarkCall(bench, contract.minEffect),
    siblings: sibs.map((s) => s.call),
    futile: () => isFutile(bench, last.n, last.level!, contract.minEffect, futilityPower),
  });

  const outValues: Record<string, number> = {};
  const deltas: Record<string, number> = {};
  for (let p = 0; p < n; p++) {
    names.forEach((name, i) => (outValues[pairMeasureName(name, p + 1)] = series[i]![p]!));
    deltas[pairMeasureName("candidate", p + 1)] = main.cand[p]! - main.base[p]!;
    contract.siblings.forEach((s, i) => {
      deltas[pairMeasureName(`sib-${s.name}`, p + 1)] = sibSides[i]!.cand[p]! - sibSides[i]!.base[p]!;
    });
  }

  const facts: Facts = { contract, design, look, main, bench, method, futilityPower };
  const regressed = sibs.filter((s) => s.call === "regressed").map((s) => s.sib.name);
  const unsure = sibs.filter((s) => s.call === "unsure").map((s) => s.sib.name);
  const first = n === 1 && !design.sequential
    ? singlePairReason(outcome.kind, facts, regressed)
    : pairedReason(outcome.kind, outcome.next, facts, regressed, unsure);
  const siblings: Record<string, SiblingEstimate> = {};
  for (const s of sibs) siblings[s.sib.name] = { ...estimate(s.iv, method), standing: s.call };
  return {
    verdict: outcome.verdict,
    values: outValues,
    deltas,
    reasons: [first, ...sibs.map((s) => siblingReason(s.sib.name, s.sib.tolerance, s.side, s.iv, s.call, facts))],
    next: outcome.next > 0 ? { kind: "more", pairs: outcome.next } : { kind: "final" },
    outcome: outcome.kind,
    benchmark: estimate(bench, method),
    siblings,
  };
}

/**
 * `decideLook`'s verdict, values, deltas and reasons only: the keys
 * decision.json stores, for callers that spread the decision into a
 * `DecisionRecord`. A caller of a sequential design needs `decideLook`, whose
 * `next` says whether the verdict is final.
 */
export function decide(contract: Contract, values: PairedValues, options: DecideOptions = {}): Decision {
  const { verdict, values: v, deltas, reasons } = decideLook(contract, values, options);
  return { verdict, values: v, deltas, reasons };
}
