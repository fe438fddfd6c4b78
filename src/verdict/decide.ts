import type { Contract, Scale } from "../contract/contract.ts";
import {
  type Facts,
  guardLabel,
  methodOf,
  pairedReason,
  type Prediction,
  siblingLabel,
  siblingReason,
  type Side,
  singlePairReason,
} from "./reasons.ts";
import {
  BASE_ARM,
  benchmarkName,
  CANDIDATE_ARM,
  differenceName,
  guardName,
  pairMeasureName,
  siblingName,
} from "../measure/measure_name.ts";
import { judgedSide } from "./judged_side.ts";
import type { RelativeEstimate } from "../stats/relative.ts";
import { FUTILITY_POWER, predictivePower } from "../stats/futility.ts";
import {
  benchmarkCall,
  judgeLook,
  type LookKind,
  type SiblingCall,
  siblingCall,
  type Verdict,
} from "../stats/look_rule.ts";
import type { IntervalMethod, LocationInterval } from "../stats/location_interval.ts";
import { REPEATED_METHOD } from "../stats/repeated_method.ts";
import { calibratedT, pairsAsideT } from "../stats/calibrated_screen.ts";
import { median } from "../stats/screened_t.ts";
import { designOf, finalLook, lookAt, nextBatch, SPENDING_POWER } from "../stats/sequential.ts";

/**
 * The decision: whether the candidate beats the baseline on the climbed
 * benchmark without any suite sibling regressing past its tolerance, judged
 * from one or more seed-paired runs. A pure function of the contract and the
 * measured values, so the same numbers give the same verdict on every run and
 * in tests. The statistics live in src/stats/ (interval: repeated_method.ts, screened_t.ts, paired.ts; looks and
 * levels: sequential.ts; early stop: futility.ts; the rule: look_rule.ts),
 * the sentences in reasons.ts; this file reads the values, asks the
 * one and has the other written.
 */

export type { Verdict } from "../stats/look_rule.ts";

/**
 * The measured values, per measure name, pair 1 first: `baseline`,
 * `candidate`, `sib-<name>-base`, `sib-<name>-cand`, and a guard's
 * `guard-<metric>-base`, `guard-<metric>-cand` (`guardName`: read from the
 * benchmark's own result). A plain number is a single pair's value, which is
 * how a one-pair run passes them.
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
  /**
   * The pairs (1-based pair numbers, in the order of their improvements:
   * lowest first) the method's estimate set aside; empty when none (Student t,
   * or too few pairs to trim).
   */
  readonly setAside: readonly number[];
  /**
   * The candidate/baseline ratio with its interval on the log scale of the
   * paired ratio (src/stats/relative.ts); null when a value is ≤ 0 (no ratio),
   * absent in estimates from before it.
   */
  readonly relative?: RelativeEstimate | null;
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
  /** Each guard's estimate and standing, by metric (judged as a sibling is). */
  readonly guards: Readonly<Record<string, SiblingEstimate>>;
}

/** Tuning of the sequential rule; only the simulation changes these (the defaults are its choice). */
export interface DecideOptions {
  /** ρ of the α-spending function α·(n/max_repeats)^ρ; default `SPENDING_POWER`. */
  readonly spendingPower?: number;
  /** Stop for futility below this predictive power (0: never); default `FUTILITY_POWER`. */
  readonly futilityPower?: number;
  /** The interval method of a look at two pairs or more; default `REPEATED_METHOD` (src/stats/repeated_method.ts). */
  readonly method?: IntervalMethod;
  /**
   * "median": no futility stop while the median pair clears min_effect (on the judged scale), so that a
   * stall, which moves the mean and the sd but not the median, cannot stop a climb; "none": the prediction
   * alone. Default `FUTILITY_VETO`.
   */
  readonly futilityVeto?: "median" | "none";
}

/**
 * The futility veto by default: none. The median veto lifts accepts under the stall model of issue 22 from
 * 85% to 92% (bench/verdict_stalls.json) but raises the pairs a candidate with no effect costs by 37% on
 * clean noise (4.07 to 5.57 at 3/9).
 */
const FUTILITY_VETO: "median" | "none" = "none";

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

/** The estimate as the decision carries it. */
function estimate(iv: LocationInterval, method: string, relative: RelativeEstimate | null): Estimate {
  const setAside = iv.setAside.map((i) => i + 1);
  return { n: iv.n, mean: iv.mean, lower: iv.lower, upper: iv.upper, confidence: iv.level, method, setAside, relative };
}

/**
 * Decides from the measured values (per measure name, pair 1 first; see
 * `PairedValues`). A pair's improvement is candidate − baseline for a
 * maximized metric and baseline − candidate for a minimized one. The look at
 * n pairs (n must be on the contract's schedule: repeats, 2·repeats, …,
 * max_repeats) gives the benchmark and every sibling an interval [L, U] of
 * the mean improvement at the look's level (src/stats/sequential.ts) — the
 * screened Student t, which sets outlying pairs aside from 6 pairs on and is
 * Student t's interval otherwise (src/stats/screened_t.ts; `options.method`
 * for another) — then, in order (src/stats/look_rule.ts):
 *
 * 1. one pair in a sequential design: another batch (no spread to judge by);
 * 2. a sibling with U < −tolerance rejects the candidate;
 * 3. a benchmark L > min_effect accepts it when every sibling has L ≥
 *    −tolerance; while a sibling is unsure, another batch (inconclusive at the last look);
 * 4. a benchmark U ≤ 0 rejects it;
 * 5. else inconclusive at the last look; before it, when an accept is out of
 *    reasonable reach (src/stats/futility.ts), stop: reject when the mean
 *    improvement is ≤ 0, else inconclusive; otherwise another batch.
 *
 * With one pair and max_repeats 1 the interval is the point [Δ, Δ] and this
 * is exactly the single-pair rule, with the same sentences: a sibling below
 * −tolerance rejects; Δ > min_effect accepts; Δ ≤ 0 rejects; else inconclusive.
 *
 * A relative min_effect or tolerance ("2%") is judged by the same rule on the
 * log improvements of the paired ratio against log(1.02) (judged_side.ts),
 * so a time minimized and its rate maximized give one verdict. Guards
 * (`guardName` series, read from the benchmark's own result) are judged as
 * siblings are. Every estimate carries the candidate/baseline ratio
 * (`relative`, null for a metric with a value ≤ 0).
 */
export function decideLook(contract: Contract, values: PairedValues, options: DecideOptions = {}): LookDecision {
  const rho = options.spendingPower ?? SPENDING_POWER;
  const futilityPower = options.futilityPower ?? FUTILITY_POWER;
  const interval = options.method ?? REPEATED_METHOD;
  // a calibrated benchmark's screen is the fence at the calibration's scale; siblings and guards keep theirs
  const benchInterval = contract.noise !== null && interval === REPEATED_METHOD
    ? calibratedT(contract.noise)
    : interval;
  const veto = options.futilityVeto ?? FUTILITY_VETO;
  const design = designOf(contract, rho);
  const side = (metric: string, direction: Side["direction"], base: string, cand: string): Side => ({
    metric,
    direction,
    baseName: base,
    candName: cand,
    base: seriesOf(values, base),
    cand: seriesOf(values, cand),
  });
  const main = side(contract.metric, contract.direction, benchmarkName(BASE_ARM), benchmarkName(CANDIDATE_ARM));
  const sibSides = contract.siblings.map((s) =>
    side(s.metric, s.direction, siblingName(s.name, BASE_ARM), siblingName(s.name, CANDIDATE_ARM))
  );
  const guardSides = contract.guards.map((g) =>
    side(g.metric, g.direction, guardName(g.metric, BASE_ARM), guardName(g.metric, CANDIDATE_ARM))
  );
  const n = main.base.length;
  const all = [main, ...sibSides, ...guardSides];
  const names = all.flatMap((s) => [s.baseName, s.candName]);
  const series = all.flatMap((s) => [s.base, s.cand]);
  series.forEach((xs, i) => {
    if (xs.length !== n) {
      throw new TypeError(`Cannot decide: measure "${names[i]}" has ${xs.length} values, "baseline" has ${n}`);
    }
  });
  const look = lookAt(design, n);
  const level = look.level ?? contract.confidence;
  const method = methodOf(design, look, rho, interval);
  const benchMethod = methodOf(design, look, rho, benchInterval);
  const judge = (s: Side, scale: Scale, threshold: number) =>
    judgedSide(s, scale, threshold, level, pairMeasureName, interval, method);
  const mainJ = judgedSide(
    main,
    contract.minEffectScale,
    contract.minEffect,
    level,
    pairMeasureName,
    benchInterval,
    benchMethod,
    (absolute) => (benchInterval === interval ? interval : pairsAsideT(absolute.setAside)),
  );
  const bench = mainJ.absolute;
  const watched = (s: { tolerance: number; toleranceScale: Scale }, sd: Side) => {
    const j = judge(sd, s.toleranceScale, s.tolerance);
    return { side: sd, j, iv: j.absolute, call: siblingCall(j.judged, j.threshold) };
  };
  const sibs = contract.siblings.map((sib, i) => ({ sib, ...watched(sib, sibSides[i]!) }));
  const guards = contract.guards.map((g, i) => ({ guard: g, ...watched(g, guardSides[i]!) }));
  const last = finalLook(design);
  const finalDf = benchInterval.df(last.n);
  // what the futility rule predicts from the pairs in hand, on the judged scale, over the method's bases (the
  // look's interval, and the ones without a pair the looser futility tests single out): the most hopeful chance
  // that the last look accepts, and the most hopeful mean a stop reads (a stalled pair they find cannot make
  // it a reject)
  let best: Prediction | undefined;
  const predicted = (): Prediction => {
    if (best !== undefined) return best;
    const bases = benchInterval.futilityBases?.(mainJ.judgedImprovements, level) ?? [mainJ.judged];
    const chances = bases.map((b) => predictivePower(b, last.n, last.level!, mainJ.threshold, finalDf));
    best = { chance: Math.max(...chances), mean: Math.max(...bases.map((b) => b.mean)) };
    return best;
  };
  const watchers = [...sibs, ...guards];
  const outcome = judgeLook({
    firstPairOnly: look.level === null,
    batch: nextBatch(design, n),
    benchmark: benchmarkCall(mainJ.judged, mainJ.threshold),
    get mean() {
      return predicted().mean;
    },
    siblings: watchers.map((s) => s.call),
    futile: () =>
      futilityPower > 0 && predicted().chance < futilityPower &&
      !(veto === "median" && median(mainJ.judgedImprovements) > mainJ.threshold),
  });

  const outValues: Record<string, number> = {};
  const deltas: Record<string, number> = {};
  for (let p = 0; p < n; p++) {
    names.forEach((name, i) => (outValues[pairMeasureName(name, p + 1)] = series[i]![p]!));
    deltas[differenceName(null, CANDIDATE_ARM, p + 1)] = main.cand[p]! - main.base[p]!;
    contract.siblings.forEach((s, i) => {
      deltas[differenceName(s.name, CANDIDATE_ARM, p + 1)] = sibSides[i]!.cand[p]! - sibSides[i]!.base[p]!;
    });
    contract.guards.forEach((g, i) => {
      deltas[guardName(g.metric, CANDIDATE_ARM, p + 1)] = guardSides[i]!.cand[p]! - guardSides[i]!.base[p]!;
    });
  }

  const facts: Facts = {
    contract,
    design,
    look,
    main,
    bench,
    judged: mainJ,
    method: benchMethod,
    futilityPower,
    predicted,
  };
  const label = (w: (typeof watchers)[number]) => "sib" in w ? siblingLabel(w.sib.name) : guardLabel(w.guard.metric);
  const regressed = watchers.filter((s) => s.call === "regressed").map(label);
  const unsure = watchers.filter((s) => s.call === "unsure").map(label);
  const first = n === 1 && !design.sequential
    ? singlePairReason(outcome.kind, facts, regressed)
    : pairedReason(outcome.kind, outcome.next, facts, regressed, unsure);
  const estimates = (ws: typeof watchers, key: (w: (typeof watchers)[number]) => string) => {
    const out: Record<string, SiblingEstimate> = {};
    for (const w of ws) out[key(w)] = { ...estimate(w.iv, method, w.j.relative), standing: w.call };
    return out;
  };
  return {
    verdict: outcome.verdict,
    values: outValues,
    deltas,
    reasons: [
      first,
      ...sibs.map((s) => siblingReason(siblingLabel(s.sib.name), s.sib, s.side, s.j, s.call, facts)),
      ...guards.map((g) => siblingReason(guardLabel(g.guard.metric), g.guard, g.side, g.j, g.call, facts)),
    ],
    next: outcome.next > 0 ? { kind: "more", pairs: outcome.next } : { kind: "final" },
    outcome: outcome.kind,
    benchmark: estimate(bench, benchMethod, mainJ.relative),
    siblings: estimates(sibs, (w) => (w as (typeof sibs)[number]).sib.name),
    guards: estimates(guards, (w) => (w as (typeof guards)[number]).guard.metric),
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
