import type { Contract, Scale } from "../contract/contract.ts";
import type { JudgedSide } from "./judged_side.ts";
import { adjustmentWords, spendingLooks } from "./interval_label.ts";
import type { ComparedSeries } from "./finite_interval.ts";
import { futilityVerdict, type LookKind, type SiblingCall } from "../stats/look_rule.ts";
import type { IntervalMethod, LocationInterval } from "../stats/location_interval.ts";
import { type Design, finalLook, type Look } from "../stats/sequential.ts";
import { formatChance, formatEstimate, formatNumber, formatPercent } from "../text/numbers.ts";

/**
 * The sentences of a decision (`decide.ts` reaches it): one for the
 * benchmark, one per sibling, in two registers — the single pair's, kept word
 * for word because runs and tests rely on them, and the interval's, which
 * names the method and, for a sequential design, the look.
 */

/** One compared quantity (the benchmark or a sibling) over the pairs. */
export type Side = ComparedSeries;

/** Single-pair facts, as today's sentences give them: `acc 10 -> 12, delta 2, higher is better`. */
function pairFacts(s: Side): string {
  const f = formatNumber;
  const better = s.direction === "maximize" ? "higher" : "lower";
  return `${s.metric} ${f(s.base[0]!)} -> ${f(s.cand[0]!)}, delta ${f(s.cand[0]! - s.base[0]!)}, ${better} is better`;
}

/**
 * Several-pair facts: `acc mean improvement 0.42 over 8 pairs (98.33% CI 0.31 to 0.53), higher is better`;
 * with pairs set aside, `… over 9 of 10 pairs (1 outlying pair set aside: pair 3; 98.33% CI …), …`. The
 * estimate reads as in every other surface (`formatEstimate`: to the digits of the interval's width).
 */
function meanFacts(s: Side, i: LocationInterval, d?: Design): string {
  const t = formatEstimate(i);
  const better = s.direction === "maximize" ? "higher" : "lower";
  const ci = ciWords(i.level, t.lower, t.upper, d);
  const k = i.setAside.length;
  if (k === 0) return `${s.metric} mean improvement ${t.mean} over ${i.n} pairs (${ci}), ${better} is better`;
  const pairs = i.setAside.map((p) => p + 1).sort((a, b) => a - b);
  const named = pairs.length === 1 ? `pair ${pairs[0]}` : `pairs ${pairs.slice(0, -1).join(", ")} and ${pairs.at(-1)}`;
  return `${s.metric} mean improvement ${t.mean} over ${i.n - k} of ${i.n} pairs ` +
    `(${k} outlying pair${k > 1 ? "s" : ""} set aside: ${named}; ${ci}), ${better} is better`;
}

/**
 * A min_effect or tolerance in the reasons, with its scale: `0.5`, or
 * `2% (relative: a factor of 1.02 in the direction's favour, on the log ratio)`.
 */
export function thresholdWords(value: number, scale: Scale): string {
  if (scale === "absolute") return formatNumber(value);
  return `${formatNumber(value * 100)}% (relative: a factor of ${formatNumber(1 + value)} in the direction's favour, ` +
    "judged on the log ratio)";
}

/**
 * The ratio's facts, for a quantity judged on the relative scale:
 * `t candidate/baseline ratio 0.882 over 8 pairs (geometric mean; 98.33% CI 0.84 to 0.93), lower is better`.
 */
function ratioFacts(s: Side, j: JudgedSide, d?: Design): string {
  const r = j.relative!;
  const t = formatEstimate(r);
  const better = s.direction === "maximize" ? "higher" : "lower";
  const k = r.setAside.length;
  const aside = k === 0 ? "" : `; ${k} outlying pair${k > 1 ? "s" : ""} set aside: ${r.setAside.join(", ")}`;
  return `${s.metric} candidate/baseline ratio ${t.mean} over ${
    r.n - k === r.n ? r.n : `${r.n - k} of ${r.n}`
  } pairs ` +
    `(geometric mean${aside}; ${ciWords(r.confidence, t.lower, t.upper, d)}), ${better} is better`;
}

/** A quantity's facts on the scale it is judged on. */
function judgedFacts(s: Side, j: JudgedSide, d?: Design): string {
  return j.scale === "relative" ? ratioFacts(s, j, d) : meanFacts(s, j.absolute, d);
}

/** `95% CI -1 to 2`, or at a look of a sequential design `98.33% CI -1 to 2; the 95% asked for, adjusted for 3 looks`. */
function ciWords(level: number, lower: string, upper: string, d?: Design): string {
  const why = d === undefined ? null : adjustmentWords(level, d.confidence, spendingLooks(d));
  return `${formatPercent(level)} CI ${lower} to ${upper}${why === null ? "" : `; ${why}`}`;
}

/** The method's name for the reasons and the estimates. */
export function methodOf(design: Design, look: Look, rho: number, method: IntervalMethod): string {
  if (look.n === 1 && !design.sequential) return "single pair, no interval";
  const detail = method.detail === undefined ? "" : ` (${method.detail})`;
  if (!design.sequential) return `paired ${method.name} interval${detail}`;
  const alpha = formatNumber(1 - design.confidence);
  const split = rho === 1
    ? "split over the looks in proportion to their pairs"
    : `spent as (n/${design.maxRepeats})^${rho}`;
  return `group-sequential paired ${method.name}${detail}, look ${look.index} of ${design.looks.length}, alpha ${alpha} ${split} ` +
    `(${formatPercent(design.confidence)} confidence over all looks together)`;
}

/**
 * The futility rule's prediction, the most hopeful over what it was asked of
 * (`IntervalMethod.futilityBases`): the chance the last look accepts, and the
 * mean improvement a stop reads (at least the look's own).
 */
export interface Prediction {
  readonly chance: number;
  readonly mean: number;
}

/** Everything the sentences draw on. */
export interface Facts {
  readonly contract: Contract;
  readonly design: Design;
  readonly look: Look;
  readonly main: Side;
  readonly bench: LocationInterval;
  /** The benchmark on the scale of min_effect (absolute: `bench`; relative: the log ratio's). */
  readonly judged: JudgedSide;
  readonly method: string;
  readonly futilityPower: number;
  /** What a futile look was predicted from (src/stats/futility.ts), asked of a futile look. */
  readonly predicted: () => Prediction;
}

/** A quantity that may block an accept: a sibling (by name) or a guard (by metric). */
export interface Watched {
  readonly kind: "sibling" | "guard";
  readonly name: string;
}

/** A sibling as the reasons name it. */
export function siblingLabel(name: string): Watched {
  return { kind: "sibling", name };
}

/** A guard as the reasons name it. */
export function guardLabel(metric: string): Watched {
  return { kind: "guard", name: metric };
}

/** `sibling "a"`, `siblings "a", "c"`, `guard "size"`, `sibling "a" and guard "size"`. */
export function siblingList(watched: readonly Watched[]): string {
  const of = (kind: Watched["kind"]) => {
    const names = watched.filter((w) => w.kind === kind).map((w) => JSON.stringify(w.name));
    return names.length === 0 ? [] : [`${kind}${names.length > 1 ? "s" : ""} ${names.join(", ")}`];
  };
  return [...of("sibling"), ...of("guard")].join(" and ");
}

/** The favourable factor of a single pair judged relatively: exp(ℓ), 1.05 for 5% better. */
function pairFactor(x: Facts): string {
  return formatNumber(Math.exp(x.judged.judged.mean));
}

/** Today's single-pair sentence for the benchmark, word for word (runs and tests rely on it). */
export function singlePairReason(kind: LookKind, x: Facts, regressed: readonly Watched[]): string {
  const f = formatNumber;
  const facts = pairFacts(x.main);
  const d = x.bench.mean;
  const m = thresholdWords(x.contract.minEffect, x.contract.minEffectScale);
  if (x.judged.scale === "relative" && (kind === "accepted" || kind === "undecided")) {
    return kind === "accepted"
      ? `The candidate improved on the baseline by a factor of ${pairFactor(x)}, above min_effect ${m}: ${facts}.`
      : `The candidate improved by a factor of ${pairFactor(x)}, at or below min_effect ${m}: ${facts}.`;
  }
  switch (kind) {
    case "sibling-regressed":
      return `The candidate ${x.judged.judged.mean > 0 ? "improved" : "did not improve"} on the benchmark ` +
        `(${facts}) but is rejected: ${siblingList(regressed)} regressed.`;
    case "accepted":
      return `The candidate improved on the baseline by ${f(d)}, above min_effect ${m}: ${facts}.`;
    case "no-improvement":
      return `The candidate did not improve on the baseline: ${facts}.`;
    default:
      return `The candidate improved by ${f(d)}, at or below min_effect ${m}: ${facts}.`;
  }
}

/** The benchmark's sentence when the verdict rests on an interval (or is waiting for one). */
export function pairedReason(
  kind: LookKind,
  next: number,
  x: Facts,
  regressed: readonly Watched[],
  unsure: readonly Watched[],
): string {
  const m = thresholdWords(x.contract.minEffect, x.contract.minEffectScale);
  const facts = judgedFacts(x.main, x.judged, x.design);
  const n = x.bench.n;
  const more = `Another batch of ${next} pair${next > 1 ? "s" : ""} is needed`;
  const atMost = x.design.sequential ? `, the most max_repeats allows` : "";
  switch (kind) {
    case "first-pair":
      return `${more}: one pair (${pairFacts(x.main)}) gives no spread to judge it by, ` +
        `so a sequential verdict never decides on it.`;
    case "sibling-regressed":
      return `The candidate ${x.judged.judged.mean > 0 ? "improved" : "did not improve"} on the benchmark (${facts}) ` +
        `but is rejected: ${siblingList(regressed)} regressed; ${x.method}.`;
    case "accepted":
      return `The candidate improved on the baseline, above min_effect ${m}: ${facts}; ${x.method}.`;
    case "no-improvement":
      return x.judged.judged.upper < 0
        ? `The candidate is worse than the baseline (the whole interval lies below 0): ${facts}; ${x.method}.`
        : `The candidate did not improve on the baseline (the interval reaches no higher than 0): ${facts}; ` +
          `${x.method}.`;
    case "sibling-unsure": {
      const why = `${siblingList(unsure)} may have regressed beyond tolerance, though the benchmark clears ` +
        `min_effect ${m}: ${facts}; ${x.method}.`;
      return next > 0 ? `${more}: ${why}` : `Inconclusive after ${n} pairs${atMost}: ${why}`;
    }
    case "futile": {
      const last = finalLook(x.design);
      const { chance: pp, mean } = x.predicted();
      const iv = x.judged.judged;
      // what the stop is: it cannot reach min_effect; whether that is because it is no better or too noisy to tell
      const why = iv.lower > 0
        ? "it is better, but not by min_effect"
        : iv.upper < 0
        ? "it is worse"
        : "too noisy to tell better from worse at this size";
      // a stop reads the most hopeful mean of its bases: a pair a stall test singles out cannot make it a reject
      const verdict = futilityVerdict(mean) === "reject"
        ? "rejected (its mean improvement is at or below 0)"
        : iv.mean <= 0
        ? "inconclusive (its mean improvement is at or below 0, but above 0 without a pair that may have " +
          "stalled, and a stall cannot make an early stop a reject)"
        : "inconclusive";
      return `Stopped early after ${n} of up to ${last.n} pairs, ${verdict}: it cannot reach min_effect ${m} ` +
        `(${why}): ${facts}; ` +
        `predicted from these pairs, the last look would clear min_effect with a chance of ${formatChance(pp)}, ` +
        `below the futility threshold ${formatPercent(x.futilityPower)}; ${x.method}.`;
    }
    default: {
      const why =
        `the interval lies neither wholly above min_effect ${m} nor wholly at or below 0: ${facts}; ${x.method}.`;
      return next > 0 ? `${more}: ${why}` : `Inconclusive after ${n} pairs${atMost}: ${why}`;
    }
  }
}

/** A sibling's or a guard's sentence; today's words for a single pair. */
export function siblingReason(
  who: Watched,
  limit: { readonly tolerance: number; readonly toleranceScale: Scale },
  side: Side,
  j: JudgedSide,
  call: SiblingCall,
  x: Facts,
) {
  const tol = thresholdWords(limit.tolerance, limit.toleranceScale);
  const name = `${who.kind === "sibling" ? "Sibling" : "Guard"} ${JSON.stringify(who.name)}`;
  if (x.look.level === null) return `${name} is not judged on one pair: ${pairFacts(side)}.`;
  const facts = j.absolute.n === 1 ? pairFacts(side) : judgedFacts(side, j, x.design);
  const how = call === "held" ? "held within" : call === "regressed" ? "regressed beyond" : "may have regressed beyond";
  return `${name} ${how} its tolerance ${tol}: ${facts}.`;
}
