import { normalCdf, normalQuantile } from "./normal.ts";
import { pairedInterval } from "./paired.ts";
import { finalLook, sequentialDesign } from "./sequential.ts";
import { logGamma } from "./special.ts";
import { tQuantile } from "./student_t.ts";

/**
 * Calibration: what an A/A run (the base tree measured against itself, in
 * seed-paired runs) says about a benchmark's noise, and so what min_effect,
 * repeats and max_repeats mean for it. The numbers assume normal paired
 * differences with the A/A spread; heavy-tailed noise makes the t interval
 * conservative (wider), so real power is a little lower than shown.
 */

/** The pair counts of the calibration's power table. */
export const POWER_TABLE_PAIRS = [1, 3, 5, 10, 20] as const;

/**
 * The chance that a fixed design of n ≥ 2 pairs accepts (lower bound above
 * min_effect) when the true improvement exceeds min_effect by `excess` sd:
 * E[Φ(√n·excess − t·V/√(n − 1))] over V ~ χ with n − 1 df — the exact
 * (noncentral t) power, by Simpson's rule over the χ density.
 */
function acceptChance(excess: number, n: number, level: number): number {
  const k = n - 1;
  const t = tQuantile((1 + level) / 2, k);
  const logNorm = (k / 2 - 1) * Math.log(2) + logGamma(k / 2);
  const top = Math.sqrt(k) + 12;
  const steps = 400;
  const h = top / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const v = i * h;
    const density = v === 0
      ? (k === 1 ? Math.exp(-logNorm) : 0)
      : Math.exp((k - 1) * Math.log(v) - v * v / 2 - logNorm);
    const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2;
    sum += weight * density * normalCdf(Math.sqrt(n) * excess - t * v / Math.sqrt(k));
  }
  return sum * h / 3;
}

/**
 * The smallest true improvement beyond min_effect that a fixed design of `n`
 * pairs, read at two-sided `level`, accepts with probability `power`, for
 * paired differences of standard deviation `sd`. For n ≥ 2 it is exact for
 * normal differences (solved by bisection on the noncentral-t power). For
 * n = 1 there is no interval: today's single-pair rule accepts when Δ >
 * min_effect, so the answer is z(power)·sd — with no confidence guarantee at
 * all (at a true improvement of exactly min_effect it accepts half the time).
 */
export function detectableEffect(sd: number, n: number, level: number, power = 0.8): number {
  if (!(sd >= 0 && Number.isInteger(n) && n >= 1)) throw new RangeError(`detectableEffect() needs sd >= 0, n >= 1`);
  if (n === 1) return normalQuantile(power) * sd;
  let lo = 0;
  let hi = 1;
  while (acceptChance(hi, n, level) < power) hi *= 2;
  for (let i = 0; i < 45; i++) {
    const mid = (lo + hi) / 2;
    if (acceptChance(mid, n, level) < power) lo = mid;
    else hi = mid;
  }
  return hi * sd;
}

/** Rounds up to two significant digits, so a suggested threshold is readable and never below the figure. */
function ceil2(x: number): number {
  if (x <= 0) return 0;
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((Math.ceil(x / unit - 1e-9) * unit).toPrecision(2));
}

/** What an A/A run says. */
export interface Calibration {
  /** A/A pairs, their mean difference and its interval at the contract's confidence (should contain 0). */
  readonly n: number;
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  /** The standard deviation of one pair's difference: the noise a verdict has to see through. */
  readonly sd: number;
  /** For n = 1, 3, 5, 10, 20: the improvement beyond min_effect found with 80% power by a fixed design. */
  readonly detectable: readonly { readonly pairs: number; readonly effect: number }[];
  /** True when the A/A interval excludes 0: a systematic difference between the two sides of a pair. */
  readonly biased: boolean;
  readonly suggestion: { readonly minEffect: number; readonly repeats: number; readonly maxRepeats: number };
}

/**
 * Calibrates from the paired differences of an A/A run (at least 2), at the
 * contract's `confidence`. `target` is the improvement beyond min_effect the
 * climb should find 80% of the time; by default one sd of a pair's
 * difference (what a single pair cannot tell from noise). The suggestion:
 * - max_repeats: the fewest pairs whose last look (in a three-look design)
 *   alone finds `target` with 80% power, at most 100 — conservative, since
 *   the earlier looks only add accepts (futility aside);
 * - repeats: ⌈max_repeats / 3⌉, three looks (the simulation's anchor 4/12
 *   shows that this uses far fewer pairs on average than a fixed design);
 * - min_effect: the A/A interval's upper bound (rounded up, never below 0):
 *   the largest "improvement" of the tree over itself the A/A run cannot
 *   rule out, so an accept must show more than that.
 */
export function calibrate(differences: readonly number[], confidence: number, target?: number): Calibration {
  if (differences.length < 2) throw new RangeError("calibrate() needs at least 2 A/A pairs for a spread");
  const aa = pairedInterval(differences, confidence);
  const sd = aa.sd!;
  const detectable = POWER_TABLE_PAIRS.map((pairs) => ({ pairs, effect: detectableEffect(sd, pairs, confidence) }));
  const goal = target ?? sd;
  let maxRepeats = 100;
  for (let m = 2; m <= 100; m++) {
    const last = finalLook(sequentialDesign(Math.ceil(m / 3), m, confidence));
    if (detectableEffect(sd, m, last.level!) <= goal) {
      maxRepeats = m;
      break;
    }
  }
  return {
    n: aa.n,
    mean: aa.mean,
    lower: aa.lower,
    upper: aa.upper,
    sd,
    detectable,
    biased: aa.lower > 0 || aa.upper < 0,
    suggestion: { minEffect: ceil2(aa.upper), repeats: Math.ceil(maxRepeats / 3), maxRepeats },
  };
}
