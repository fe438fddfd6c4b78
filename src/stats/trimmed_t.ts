import type { IntervalMethod, LocationInterval } from "./location_interval.ts";
import { STUDENT_T } from "./location_interval.ts";
import { tQuantile } from "./student_t.ts";

/**
 * The trimmed t interval (Tukey & McLaughlin, 1963; Yuen, 1974): the
 * interval of the trimmed mean of the improvements, which one stalled pair
 * cannot drag or widen. The Student t interval weighs every pair alike, so a
 * single pair 12 standard deviations out (a job that shared its node with
 * another) moves the mean by 12/n sd and multiplies the sd by about √(12²/n):
 * at n = 10 a clear improvement looks undecided and the futility rule stops
 * the climb although 9 pairs of 10 favour the candidate.
 *
 * The derivation. Sort the n improvements d₍₁₎ ≤ … ≤ d₍ₙ₎ and set aside the
 * g = ⌊γ·n⌋ lowest and the g highest (γ the trimming proportion); h = n − 2g
 * remain.
 *
 * - The estimate is the trimmed mean m = (d₍g+1₎ + … + d₍n−g₎) / h.
 * - Its spread comes from the Winsorized sample, in which the g lowest are
 *   replaced by d₍g+1₎ and the g highest by d₍n−g₎: with s_w² its sample
 *   variance (n − 1 denominator), the trimmed mean's asymptotic variance
 *   σ_w² / ((1 − 2γ)²·n) (Tukey & McLaughlin 1963; Huber 1981 §3.3) is
 *   estimated by se² = (n − 1)·s_w² / (h·(h − 1)) (Yuen 1974, eq. 2.4, for
 *   one sample).
 * - (m − μ_t)/se is referred to Student t with h − 1 degrees of freedom
 *   (Tukey & McLaughlin; Yuen), μ_t the population trimmed mean: the interval
 *   is m ± t((1 + level)/2, h − 1)·se.
 *
 * With g = 0 (γ·n < 1) nothing is trimmed, the Winsorized sample is the
 * sample, se² = s²/n and df = n − 1: exactly the Student t interval, which
 * this function then returns (the same numbers, bit for bit). At 20% that is
 * every n ≤ 4, so a design's small first look decides on tight data as it
 * did before.
 *
 * What μ_t means here: a pair's two runs are exchangeable when the candidate
 * changes nothing (one seed, one kind of machine), so a pair's improvement is
 * then symmetric about 0 whatever the shape of the run-to-run noise — stalls
 * included, however one-sided — and μ_t is 0, the mean and the median at
 * once. A real effect shifts it; under one-sided stalls the mean of the
 * improvements also carries the stalls (a run 3× longer 10% of the time adds
 * its share of every improvement), the trimmed mean much less: it estimates
 * the improvement of a typical pair. Coverage is not exact at small n for
 * non-normal data (nor is Student t's); Wilcox (2012, §4.5) finds 20%
 * trimming the best compromise between normal efficiency and heavy tails,
 * and scripts/simulate_verdict.ts checks the verdict's error rates on the
 * noise shapes that matter here (bench/verdict_simulation.json).
 *
 * References: J. W. Tukey & D. H. McLaughlin, "Less vulnerable confidence and
 * significance procedures for location based on a single sample:
 * trimming/Winsorization 1", Sankhyā A 25 (1963) 331–352. K. K. Yuen, "The
 * two-sample trimmed t for unequal population variances", Biometrika 61
 * (1974) 165–170. R. R. Wilcox, Introduction to Robust Estimation and
 * Hypothesis Testing, 3rd ed. (2012), §3.3, §4.5 (`trimci`).
 */

/** The default trimming proportion γ: 20% from each end. */
export const TRIM = 0.2;

/** g = ⌊γ·n⌋, with a little slack so that 0.2·10 is 2 even where it rounds to 1.9999999999999998. */
export function trimmedCount(n: number, proportion: number): number {
  return Math.floor(proportion * n + 1e-9);
}

/**
 * The two-sided `level` trimmed t interval of `improvements`, trimming
 * ⌊proportion·n⌋ from each end (see the module doc). `mean` is the trimmed
 * mean, `sd` the sample sd of all improvements (null for one pair), `se`
 * the trimmed mean's standard error, `df` = h − 1, and `setAside` the
 * trimmed pairs' indices, the lowest first (ties go by position). One pair
 * is the point [Δ, Δ]; nothing to trim is the Student t interval.
 *
 * Throws a `RangeError` on an empty list, a non-finite value, a level outside
 * (0, 1) or a proportion outside [0, 0.5): caller bugs.
 */
export function trimmedInterval(
  improvements: readonly number[],
  level: number,
  proportion: number = TRIM,
): LocationInterval {
  if (!(proportion >= 0 && proportion < 0.5)) {
    throw new RangeError(`trimmedInterval() needs 0 <= proportion < 0.5, got ${proportion}`);
  }
  return trimmedBy(improvements, level, trimmedCount(improvements.length, proportion));
}

/** The trimmed t interval trimming `g` from each end (0 ≤ g, n − 2g ≥ 2 unless g = 0). */
export function trimmedBy(improvements: readonly number[], level: number, g: number): LocationInterval {
  const n = improvements.length;
  const plain = STUDENT_T.interval(improvements, level); // validates, and is the answer when g = 0
  if (g === 0) return plain;
  if (!(Number.isInteger(g) && g > 0 && n - 2 * g >= 2)) {
    throw new RangeError(`trimmedBy() needs a whole g with n - 2g >= 2, got g ${g} of ${n}`);
  }
  const order = improvements.map((d, i) => ({ d, i })).sort((a, b) => a.d - b.d || a.i - b.i);
  const sorted = order.map((o) => o.d);
  const h = n - 2 * g;
  const kept = sorted.slice(g, n - g);
  const mean = centre(kept);
  const lo = sorted[g]!;
  const hi = sorted[n - g - 1]!;
  const winsorized = sorted.map((d) => Math.min(Math.max(d, lo), hi));
  const w = centre(winsorized);
  let squares = 0;
  for (const x of winsorized) squares += (x - w) ** 2;
  const se = Math.sqrt(squares / (h * (h - 1))); // (n − 1)·s_w² / (h(h − 1)), s_w² = squares / (n − 1)
  const df = h - 1;
  const half = se === 0 ? 0 : tQuantile((1 + level) / 2, df) * se;
  const setAside = [...order.slice(0, g), ...order.slice(n - g)].map((o) => o.i);
  return { n, mean, sd: plain.sd, lower: mean - half, upper: mean + half, level, se, df, setAside };
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length;
  return m % 2 === 1 ? s[(m - 1) / 2]! : (s[m / 2 - 1]! + s[m / 2]!) / 2;
}

/**
 * How many of `xs` lie beyond median ± k·MADN on the side with more of them
 * (MADN = 1.4826·median |x − median|, the normal-consistent MAD; Hampel's
 * rejection rule): what symmetric trimming must set aside from each end to
 * drop them all. 0 when the MAD is 0 (half the values or more are equal:
 * no scale to judge by).
 */
export function outlyingCount(xs: readonly number[], k: number): number {
  if (xs.length < 3) return 0;
  const m = median(xs);
  const madn = 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  if (!(madn > 0)) return 0;
  let below = 0;
  let above = 0;
  for (const x of xs) {
    if (x < m - k * madn) below++;
    else if (x > m + k * madn) above++;
  }
  return Math.max(below, above);
}

/**
 * The mean, shifted by the first value so that equal values give exactly
 * that value (as `pairedInterval` does: three 0.1s are 0.1, not 0.10000000000000002).
 */
function centre(xs: readonly number[]): number {
  const x0 = xs[0]!;
  let shift = 0;
  for (const x of xs) shift += x - x0;
  return x0 + shift / xs.length;
}

/**
 * The adaptive trimmed t: trim from each end as many pairs as lie beyond
 * median ± k·MADN on the busier side (`outlyingCount`), at least
 * ⌊minProportion·n⌋ and at most what leaves two, then `trimmedBy`.
 */
export function adaptiveTrimmedInterval(
  improvements: readonly number[],
  level: number,
  k: number,
  minProportion = 0,
): LocationInterval {
  const n = improvements.length;
  const g = Math.min(Math.max(trimmedCount(n, minProportion), outlyingCount(improvements, k)), Math.floor((n - 2) / 2));
  return trimmedBy(improvements, level, Math.max(g, 0));
}

export function adaptiveTrimmedT(k: number, minProportion = 0): IntervalMethod {
  return {
    name: `trimmed t, outliers beyond ${k} MADN${minProportion > 0 ? `, at least ${minProportion * 100}%` : ""}`,
    interval: (improvements, level) => adaptiveTrimmedInterval(improvements, level, k, minProportion),
    df: (n) => n - 2 * trimmedCount(n, minProportion) - 1,
  };
}

/** The trimmed t as a verdict method, at trimming `proportion` (default `TRIM`). */
export function trimmedT(proportion: number = TRIM): IntervalMethod {
  const pct = Math.round(proportion * 100);
  return {
    name: `${pct}% trimmed t (Yuen)`,
    interval: (improvements, level) => trimmedInterval(improvements, level, proportion),
    df: (n) => n - 2 * trimmedCount(n, proportion) - 1,
  };
}

