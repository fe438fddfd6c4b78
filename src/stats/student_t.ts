import { normalQuantile } from "./normal.ts";
import { logGamma, regularizedBeta } from "./special.ts";

/**
 * Student's t distribution with `df` degrees of freedom (any real df ≥ 1):
 * the exact law of the paired-difference t statistic when the differences
 * are normal, which is what makes a 3- or 5-pair interval honest where a
 * normal (z) interval would be far too narrow — t(0.975, 3) is 3.18, not 1.96.
 */

/** Refuses a df the distribution is not defined for here (a programmer bug). */
function checkDf(df: number): void {
  if (!(df >= 1)) throw new RangeError(`Student t needs df >= 1, got ${df}`);
}

/**
 * P(T > t) for t ≥ 0: ½·I_x(df/2, ½) with x = df / (df + t²), computed from
 * the tail so that a far quantile keeps its relative precision.
 */
function upperTail(t: number, df: number): number {
  const t2 = t * t;
  return 0.5 * regularizedBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
}

/** P(T ≤ t); about 1e-14 accurate. */
export function tCdf(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  return t >= 0 ? 1 - upperTail(t, df) : upperTail(-t, df);
}

/** The density of T at t. */
export function tPdf(t: number, df: number): number {
  checkDf(df);
  const logConst = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logConst - (df + 1) / 2 * Math.log1p(t * t / df));
}

/** The t > 0 with P(T > t) = q, 0 < q < ½: Newton steps kept inside a bracket by bisection. */
function upperQuantile(q: number, df: number): number {
  if (df === 1) return 1 / Math.tan(Math.PI * q); // Cauchy, closed form
  if (df === 2) return (1 - 2 * q) / Math.sqrt(2 * q * (1 - q));
  const z = normalQuantile(1 - q);
  // Cornish–Fisher start: exact enough that Newton needs a handful of steps
  let x = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
  let lo = 0;
  let hi = Math.max(2 * x, 1);
  while (upperTail(hi, df) > q) hi *= 2;
  if (!(x > lo && x < hi)) x = (lo + hi) / 2;
  for (let i = 0; i < 200; i++) {
    const gap = upperTail(x, df) - q; // > 0: x is too small
    if (gap > 0) lo = x;
    else hi = x;
    let next = x + gap / tPdf(x, df);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    const moved = Math.abs(next - x);
    x = next;
    if (moved <= 1e-14 * x || hi - lo <= 1e-15 * hi) break;
  }
  return x;
}

const memo = new Map<string, number>();

/**
 * The t with P(T ≤ t) = p, for 0 < p < 1 and df ≥ 1: t(0.975, 1) = 12.7062047,
 * t(0.975, 10) = 2.22813885. Closed forms for df 1 and 2, Newton with a
 * bisection guard otherwise; about 1e-12 relative. Memoized, because a
 * sequential design asks for the same few quantiles at every look.
 */
export function tQuantile(p: number, df: number): number {
  checkDf(df);
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`tQuantile() needs 0 <= p <= 1, got ${p}`);
  }
  if (p === 0.5) return 0;
  const key = `${p}|${df}`;
  let upper = memo.get(key);
  if (upper === undefined) {
    upper = upperQuantile(Math.min(p, 1 - p), df);
    memo.set(key, upper);
  }
  return p > 0.5 ? upper : -upper;
}
