// Tested by tests/stats/student_t_test.ts
import { regularizedGammaQ } from "./special.ts";

/**
 * The standard normal distribution: the large-sample limit of Student t, the
 * model of the future pairs in the futility rule, and the n = 1 case of the
 * calibration's power table.
 */

/** erfc(z) = Q(1/2, z²) for z ≥ 0, which keeps relative precision far into the tail. */
function erfc(z: number): number {
  return z >= 0 ? regularizedGammaQ(0.5, z * z) : 2 - regularizedGammaQ(0.5, z * z);
}

/** P(Z ≤ x) for a standard normal Z; accurate to about 1e-15 relative, tails included. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** The standard normal density. */
function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

// Acklam's rational approximation (relative error 1.2e-9), used only as the start for Newton steps.
const A = [
  -3.969683028665376e+01,
  2.209460984245205e+02,
  -2.759285104469687e+02,
  1.383577518672690e+02,
  -3.066479806614716e+01,
  2.506628277459239e+00,
];
const B = [
  -5.447609879822406e+01,
  1.615858368580409e+02,
  -1.556989798598866e+02,
  6.680131188771972e+01,
  -1.328068155288572e+01,
];
const C = [
  -7.784894002430293e-03,
  -3.223964580411365e-01,
  -2.400758277161838e+00,
  -2.549732539343734e+00,
  4.374664141464968e+00,
  2.938163982698783e+00,
];
const D = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];

/** Evaluates the polynomial with coefficients `c` (highest power first) at x. */
function poly(c: readonly number[], x: number): number {
  return c.reduce((acc, k) => acc * x + k, 0);
}

/** Acklam's lower-tail start for q ≤ 0.5. */
function lowerTailStart(q: number): number {
  if (q < 0.02425) {
    const r = Math.sqrt(-2 * Math.log(q));
    return poly(C, r) / (poly(D, r) * r + 1);
  }
  const r = q - 0.5;
  const s = r * r;
  return poly(A, s) * r / (poly(B, s) * s + 1);
}

/**
 * The x with P(Z ≤ x) = p, for 0 < p < 1 (±Infinity at 0 and 1). Acklam's
 * approximation refined by Newton steps on the lower tail, so it is accurate
 * to about 1e-15 relative: 1.959963984540054 at 0.975, 0.8416212335729143 at 0.8.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile() needs 0 <= p <= 1, got ${p}`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  const q = Math.min(p, 1 - p);
  let x = lowerTailStart(q);
  for (let i = 0; i < 4; i++) {
    const step = (normalCdf(x) - q) / normalPdf(x);
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.abs(x)) break;
  }
  return p < 0.5 ? x : -x;
}
