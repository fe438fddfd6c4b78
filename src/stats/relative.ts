import type { Direction } from "./improvement.ts";
import type { IntervalMethod, LocationInterval } from "./location_interval.ts";

/**
 * The relative change: how many times the candidate's value the baseline's
 * is, for a metric whose every value is positive (a time, a rate, a size).
 * It is read on the log scale of the paired ratio: pair i's log improvement
 * is ℓᵢ = log(candᵢ/baseᵢ) for a maximized metric and log(baseᵢ/candᵢ) for a
 * minimized one (positive = better, as for the improvement), the verdict's
 * interval method (the screened t, src/stats/screened_t.ts) gives the
 * interval [L, U] of the mean ℓ, and exp brings it back as a ratio.
 *
 * Why the log of the ratio. Timing users switch between a time t (minimize)
 * and a rate 1/t (maximize) of one benchmark; their differences are not
 * mirrors of each other, their log ratios are: log(b/c) for t is
 * log((1/c)/(1/b)) for 1/t, pair by pair, so the two forms give one ℓ, one
 * interval, one verdict on a relative min_effect, and the ratio r of one is
 * 1/r of the other with [a, b] ↔ [1/b, 1/a]. The mean of ℓ is the log of the
 * geometric mean of the pairs' ratios, and multiplicative noise (a machine
 * 5% slow slows every phase by 5%) is additive on it.
 *
 * A metric that can be zero or negative has no log: the relative figure is
 * null for it (`relativeWhy` says why), and a relative min_effect or
 * tolerance cannot be judged on it (the verdict refuses: decide.ts).
 */

/** The candidate/baseline ratio with its interval, as decision.json keeps it (an `Estimate` of ratios). */
export interface RelativeEstimate {
  /** Pairs it rests on. */
  readonly n: number;
  /** The geometric mean of candᵢ/baseᵢ over the pairs the method kept (the ratio, whatever the direction). */
  readonly mean: number;
  /** The ratio's interval, lower ≤ upper; the point [mean, mean] for one pair. */
  readonly lower: number;
  readonly upper: number;
  /** The interval's two-sided level (the look's, as the improvement's). */
  readonly confidence: number;
  /** The method, in words, as the improvement's estimate names it. */
  readonly method: string;
  /** The pairs (1-based) the method set aside on the log scale; empty when none. */
  readonly setAside: readonly number[];
}

/** Why there is no relative figure for these values, or null when there is one (every value positive and finite). */
export function relativeWhy(metric: string, base: readonly number[], cand: readonly number[]): string | null {
  const bad = [...base, ...cand].find((x) => !(x > 0 && Number.isFinite(x)));
  if (bad === undefined) return null;
  return `${JSON.stringify(metric)} has a value of ${bad}: a ratio needs every value above 0`;
}

/** The log improvements, pair by pair: log(c/b) maximized, log(b/c) minimized; null when any value is ≤ 0. */
export function logImprovements(
  direction: Direction,
  base: readonly number[],
  cand: readonly number[],
): number[] | null {
  if (relativeWhy("", base, cand) !== null) return null;
  return base.map((b, i) => direction === "maximize" ? Math.log(cand[i]! / b) : Math.log(b / cand[i]!));
}

/**
 * The ratio estimate of a log-improvement interval: exp of its ends for a
 * maximized metric; for a minimized one the ratio cand/base is exp(−ℓ), so
 * [exp(−U), exp(−L)].
 */
export function ratioOf(direction: Direction, iv: LocationInterval, method: string): RelativeEstimate {
  const setAside = iv.setAside.map((i) => i + 1);
  const sign = direction === "maximize" ? 1 : -1;
  const a = Math.exp(sign * iv.lower);
  const b = Math.exp(sign * iv.upper);
  return {
    n: iv.n,
    mean: Math.exp(sign * iv.mean),
    lower: Math.min(a, b),
    upper: Math.max(a, b),
    confidence: iv.level,
    method,
    setAside,
  };
}

/**
 * The relative figure of paired values at `level` by `method` (one pair:
 * the ratio itself, lower = upper = mean); null when any value is ≤ 0.
 */
export function relativeEstimate(
  direction: Direction,
  base: readonly number[],
  cand: readonly number[],
  level: number,
  method: IntervalMethod,
  methodWords: string,
): RelativeEstimate | null {
  const logs = logImprovements(direction, base, cand);
  if (logs === null) return null;
  return ratioOf(direction, method.interval(logs, level), methodWords);
}

/**
 * A relative min_effect or tolerance f (0.02 for "2%") on the log scale:
 * log(1 + f), a change by the factor 1 + f in the direction's favour — the
 * time divided by 1.02, the rate multiplied by 1.02 — so that t and 1/t read
 * one threshold.
 */
export function logThreshold(fraction: number): number {
  return Math.log1p(fraction);
}
