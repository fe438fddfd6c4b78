import { normalCdf, normalQuantile } from "./normal.ts";
import { logGamma } from "./special.ts";
import { tQuantile } from "./student_t.ts";

/**
 * Critical values for comparing many candidates with one baseline at once:
 * the c such that the largest of k one-sided t statistics exceeds c with
 * probability `alpha` when no candidate differs from its null. Used by the
 * simultaneous round procedures (src/verdict/round_simultaneous.ts), which the
 * round simulation compares with screen-then-confirm.
 *
 * - Bonferroni: t(1 − alpha/k, df); valid whatever the correlation.
 * - Dunnett (1955): the k statistics share the baseline, so for equal noise in
 *   every arm they are equicorrelated with ρ = ½ and share one variance
 *   estimate with `df` degrees of freedom (a multivariate t). Then
 *
 *     P(max T ≤ c) = ∫ g_df(s) ∫ φ(w) Φ((c·s − √ρ·w)/√(1 − ρ))^k dw ds,
 *
 *   s = χ_df/√df with density g_df. Computed by Simpson's rule on both
 *   integrals (w over ±8.5, s over the χ density's mass) and bisection between
 *   the one-comparison value and Bonferroni's, which bracket it for ρ ≥ 0;
 *   about 1e-6 in probability. Large-df values at 0.05: k = 4 2.160, k = 8
 *   2.381, k = 16 2.583. With unequal noise or per-arm variance estimates the
 *   correlation and the shared-variance law are approximations — too small a
 *   value for a round's paired t statistics, each with its own variance, as
 *   the round simulation found (bench/round_simulation.json) — while
 *   Bonferroni holds regardless.
 */

/** The one-sided Bonferroni critical value for k comparisons at family level alpha. */
export function bonferroniCritical(k: number, alpha: number, df: number): number {
  check(k, alpha, df);
  return df === Infinity ? normalQuantile(1 - alpha / k) : tQuantile(1 - alpha / k, df);
}

const W_STEPS = 340;
const W_SPAN = 8.5;
const S_STEPS = 240;

/** Simpson weights times the step for n (even) intervals over [a, b]. */
function simpson(a: number, b: number, n: number): { x: number[]; w: number[] } {
  const h = (b - a) / n;
  const x: number[] = [];
  const w: number[] = [];
  for (let i = 0; i <= n; i++) {
    x.push(a + i * h);
    w.push((i === 0 || i === n ? 1 : i % 2 === 1 ? 4 : 2) * h / 3);
  }
  return { x, w };
}

/** The nodes and weights of s = χ_df/√df (a single node at 1 for infinite df). */
function scaleNodes(df: number): { x: number[]; w: number[] } {
  if (df === Infinity) return { x: [1], w: [1] };
  const top = 1 + 9 / Math.sqrt(df) + 1;
  const grid = simpson(0, top, S_STEPS);
  // density of s: 2·(df/2)^(df/2) s^(df−1) e^(−df·s²/2) / Γ(df/2)
  const logConst = Math.log(2) + (df / 2) * Math.log(df / 2) - logGamma(df / 2);
  const w = grid.x.map((s, i) => {
    const density = s === 0 ? (df === 1 ? Math.exp(logConst) : 0) : Math.exp(
      logConst + (df - 1) * Math.log(s) - df * s * s / 2,
    );
    return grid.w[i]! * density;
  });
  return { x: grid.x, w };
}

/** P(max of k equicorrelated (ρ) one-sided t statistics with df degrees of freedom > c). */
export function dunnettTail(c: number, k: number, df: number, rho = 0.5): number {
  const inner = simpson(-W_SPAN, W_SPAN, W_STEPS);
  const phi = inner.x.map((w, i) => inner.w[i]! * Math.exp(-w * w / 2) / Math.sqrt(2 * Math.PI));
  const scale = scaleNodes(df);
  const a = Math.sqrt(rho);
  const b = Math.sqrt(1 - rho);
  let below = 0;
  scale.x.forEach((s, j) => {
    let h = 0;
    inner.x.forEach((w, i) => (h += phi[i]! * normalCdf((c * s - a * w) / b) ** k));
    below += scale.w[j]! * h;
  });
  return 1 - below;
}

const memo = new Map<string, number>();

/**
 * Dunnett's one-sided many-to-one critical value: P(max of k statistics > c)
 * = alpha for equicorrelated (ρ, default ½) t statistics with `df` degrees of
 * freedom (Infinity: normal). k = 1 is t(1 − alpha, df). Memoized.
 */
export function dunnettCritical(k: number, alpha: number, df: number, rho = 0.5): number {
  check(k, alpha, df);
  if (!(rho >= 0 && rho < 1)) throw new RangeError(`dunnettCritical() needs 0 <= rho < 1, got ${rho}`);
  if (k === 1) return bonferroniCritical(1, alpha, df);
  const key = `${k}|${alpha}|${df}|${rho}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let lo = bonferroniCritical(1, alpha, df);
  let hi = bonferroniCritical(k, alpha, df) + 1e-9;
  while (hi - lo > 1e-7 * hi) {
    const mid = (lo + hi) / 2;
    if (dunnettTail(mid, k, df, rho) > alpha) lo = mid;
    else hi = mid;
  }
  const c = (lo + hi) / 2;
  memo.set(key, c);
  return c;
}

function check(k: number, alpha: number, df: number): void {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`A critical value needs k >= 1 comparisons, got ${k}`);
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`A critical value needs 0 < alpha < 0.5, got ${alpha}`);
  if (!(df >= 1)) throw new RangeError(`A critical value needs df >= 1, got ${df}`);
}
