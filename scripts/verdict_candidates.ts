/**
 * The interval methods scripts/simulate_verdict.ts compared with the one the
 * verdict uses (src/stats/screened_t.ts) and today's Student t
 * (src/stats/location_interval.ts): kept here, beside the simulation, so its
 * table can be reproduced; nothing in src/ imports them.
 *
 * - Hodges–Lehmann with the exact signed-rank interval (Hollander & Wolfe,
 *   Nonparametric Statistical Methods, 3rd ed., §3.2): the median of the
 *   n(n+1)/2 Walsh averages, between the k-th smallest and k-th largest of
 *   them, k from the exact null law of the signed-rank statistic. Below the
 *   level the law can reach (2/2ⁿ two-sided: 0.125 at n = 4) it has no
 *   interval and cannot decide.
 * - The sign-flip (randomization) interval of the mean, exact for symmetric
 *   improvements with all 2ⁿ flips: by Hartigan (JASA 64, 1969, 1303–1317) the
 *   2ⁿ − 1 means of the non-empty subsets cut the line into 2ⁿ pieces each
 *   holding the centre with probability 2⁻ⁿ, so [k-th smallest, k-th largest]
 *   covers with probability 1 − 2k/2ⁿ.
 *
 * - The trimmed t (Tukey & McLaughlin, Sankhyā A 25, 1963, 331–352; Yuen,
 *   Biometrika 61, 1974, 165–170; Wilcox, Introduction to Robust Estimation
 *   and Hypothesis Testing, 3rd ed., §4.5): set aside the g = ⌊γn⌋ lowest and
 *   highest improvements, h = n − 2g remain; the trimmed mean ± t(h − 1)·se
 *   with se² = (n − 1)·s_w²/(h(h − 1)), s_w² the variance of the Winsorized
 *   sample (the g lowest replaced by the lowest kept, the g highest by the
 *   highest kept). With g = 0 it is the Student t interval exactly.
 *
 * The rank and flip methods have no t pivot for the futility rule: they give
 * it the 20% trimmed t's estimate spread (se, df), so that only the interval
 * differs.
 */
import type { IntervalMethod, LocationInterval } from "../src/stats/location_interval.ts";
import { STUDENT_T } from "../src/stats/location_interval.ts";
import { tQuantile } from "../src/stats/student_t.ts";

/** Stands for an end the method cannot place (too few pairs for the level): finite, so the rule reads it. */
const FAR = Number.MAX_VALUE;

/** The trimming proportion's count: ⌊γ·n⌋, with slack so that 0.2·10 is 2. */
function trimmedCount(n: number, proportion: number): number {
  return Math.floor(proportion * n + 1e-9);
}

/** The trimmed t interval of `improvements` at `level`, trimming ⌊proportion·n⌋ from each end. */
export function trimmedInterval(improvements: readonly number[], level: number, proportion: number): LocationInterval {
  const n = improvements.length;
  const g = trimmedCount(n, proportion);
  const plain = STUDENT_T.interval(improvements, level);
  if (g === 0) return plain;
  const order = improvements.map((d, i) => ({ d, i })).sort((a, b) => a.d - b.d || a.i - b.i);
  const sorted = order.map((o) => o.d);
  const h = n - 2 * g;
  const mean = sorted.slice(g, n - g).reduce((a, b) => a + b, 0) / h;
  const lo = sorted[g]!;
  const hi = sorted[n - g - 1]!;
  const winsorized = sorted.map((d) => Math.min(Math.max(d, lo), hi));
  const w = winsorized.reduce((a, b) => a + b, 0) / n;
  const squares = winsorized.reduce((a, x) => a + (x - w) ** 2, 0);
  const se = Math.sqrt(squares / (h * (h - 1)));
  const half = se === 0 ? 0 : tQuantile((1 + level) / 2, h - 1) * se;
  const setAside = [...order.slice(0, g), ...order.slice(n - g)].map((o) => o.i);
  // the sd the futility pivot reads: of h pairs whose mean has this se
  return { n, mean, sd: se * Math.sqrt(h), lower: mean - half, upper: mean + half, level, df: h - 1, setAside };
}

/** The trimmed t as a verdict method, trimming `proportion` from each end. */
export function trimmedT(proportion: number): IntervalMethod {
  return {
    name: `${Math.round(proportion * 100)}% trimmed t (Yuen)`,
    interval: (improvements, level) => trimmedInterval(improvements, level, proportion),
    df: (n) => n - 2 * trimmedCount(n, proportion) - 1,
  };
}

const TRIMMED_20 = trimmedT(0.2);

/** The counts of the signed-rank statistic W⁺ = 0 … n(n+1)/2 under the null, out of 2ⁿ. */
function signedRankCounts(n: number): number[] {
  let c = [1];
  for (let r = 1; r <= n; r++) {
    const next = new Array<number>(c.length + r).fill(0);
    c.forEach((x, w) => {
      next[w]! += x;
      next[w + r]! += x;
    });
    c = next;
  }
  return c;
}

const countsMemo = new Map<number, number[]>();

/** The largest k with P(W⁺ ≤ k − 1) ≤ tail: the interval's rank among the sorted Walsh averages (0: none). */
function signedRankK(n: number, tail: number): number {
  let c = countsMemo.get(n);
  if (c === undefined) countsMemo.set(n, c = signedRankCounts(n));
  const total = 2 ** n;
  let cum = 0;
  let k = 0;
  while (k < c.length && (cum + c[k]!) / total <= tail) cum += c[k++]!;
  return k;
}

/** An interval from ends the method found, with the trimmed t's spread for the futility rule. */
function withFutilitySpread(xs: readonly number[], level: number, mean: number, lower: number, upper: number) {
  const t = TRIMMED_20.interval(xs, level);
  return { ...t, mean, lower, upper } satisfies LocationInterval;
}

export const HODGES_LEHMANN: IntervalMethod = {
  name: "Hodges-Lehmann, signed-rank interval",
  interval(xs, level) {
    const n = xs.length;
    if (n === 1) return STUDENT_T.interval(xs, level);
    const walsh: number[] = [];
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh.push((xs[i]! + xs[j]!) / 2);
    walsh.sort((a, b) => a - b);
    const m = walsh.length;
    const hl = m % 2 === 1 ? walsh[(m - 1) / 2]! : (walsh[m / 2 - 1]! + walsh[m / 2]!) / 2;
    const k = signedRankK(n, (1 - level) / 2);
    const [lower, upper] = k === 0 ? [-FAR, FAR] : [walsh[k - 1]!, walsh[m - k]!];
    return withFutilitySpread(xs, level, hl, lower, upper);
  },
  df: TRIMMED_20.df,
};

export const SIGN_FLIP: IntervalMethod = {
  name: "sign-flip interval of the mean",
  interval(xs, level) {
    const n = xs.length;
    if (n === 1) return STUDENT_T.interval(xs, level);
    if (n > 20) throw new RangeError("SIGN_FLIP enumerates 2^n subsets: n <= 20 only");
    const total = 2 ** n;
    const means = new Float64Array(total - 1);
    // subset sums by the lowest set bit: sum(s) = sum(s without its lowest bit) + that element
    const sums = new Float64Array(total);
    const sizes = new Uint8Array(total);
    for (let s = 1; s < total; s++) {
      const low = s & -s;
      const i = 31 - Math.clz32(low);
      sums[s] = sums[s ^ low]! + xs[i]!;
      sizes[s] = sizes[s ^ low]! + 1;
      means[s - 1] = sums[s]! / sizes[s]!;
    }
    means.sort();
    const k = Math.floor((1 - level) / 2 * total + 1e-9);
    const mean = sums[total - 1]! / n;
    const [lower, upper] = k === 0 ? [-FAR, FAR] : [means[k - 1]!, means[total - 1 - k]!];
    return withFutilitySpread(xs, level, mean, lower, upper);
  },
  df: TRIMMED_20.df,
};
