import { tQuantile } from "./student_t.ts";

/**
 * The confidence interval of the mean improvement over paired runs. A pair is
 * one baseline and one candidate measure under the same seed, so whatever the
 * seed does to the benchmark (often by far the largest term) cancels in the
 * pair's difference; the n differences are then independent, and the Student
 * t interval on them is exact when they are normal. Pooling the baseline runs
 * and the candidate runs separately instead (as asv, pyperf and criterion do)
 * would keep the seed's spread in the noise and need many more runs.
 */

/** The mean improvement with its interval; what a verdict is read from. */
export interface PairedInterval {
  /** How many pairs. */
  readonly n: number;
  /** The mean improvement. */
  readonly mean: number;
  /** The sample standard deviation of the improvements (n − 1 denominator); null when n = 1 (no estimate). */
  readonly sd: number | null;
  /** The interval's ends: two-sided at `level`, [mean, mean] when n = 1 or all improvements are equal. */
  readonly lower: number;
  readonly upper: number;
  /** The two-sided confidence level of [lower, upper], 0.5 < level < 1. */
  readonly level: number;
}

/**
 * The mean and standard deviation, shifted by the first value so that equal
 * values give exactly that value and exactly 0 (0.1 three times must not
 * become a mean of 0.10000000000000002 with a spread of 1e-17, which would
 * turn a zero-variance interval into a sliver).
 */
function meanAndSd(xs: readonly number[]): { mean: number; sd: number } {
  const x0 = xs[0]!;
  let shift = 0;
  for (const x of xs) shift += x - x0;
  const offset = shift / xs.length;
  let squares = 0;
  for (const x of xs) squares += (x - x0 - offset) ** 2;
  return { mean: x0 + offset, sd: Math.sqrt(squares / (xs.length - 1)) };
}

/**
 * The two-sided `level` Student t interval of the mean of `improvements`:
 * mean ± t((1 + level)/2, n − 1) · sd/√n.
 *
 * - n = 1: no variance estimate exists, so the "interval" is the point
 *   [Δ, Δ]; a verdict read from it is today's single-pair rule.
 * - All improvements equal: sd = 0 and the interval is [mean, mean]
 *   (a deterministic benchmark needs no more than two pairs to say so).
 *
 * Throws a `RangeError` on an empty list, a non-finite value or a level
 * outside (0, 1): those are caller bugs, not user input.
 */
export function pairedInterval(improvements: readonly number[], level: number): PairedInterval {
  const n = improvements.length;
  if (n === 0) throw new RangeError("pairedInterval() needs at least one improvement");
  if (!improvements.every(Number.isFinite)) {
    throw new RangeError(`pairedInterval() needs finite improvements, got ${improvements.join(", ")}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`pairedInterval() needs 0 < level < 1, got ${level}`);
  if (n === 1) {
    const d = improvements[0]!;
    return { n, mean: d, sd: null, lower: d, upper: d, level };
  }
  const { mean, sd } = meanAndSd(improvements);
  const half = sd === 0 ? 0 : tQuantile((1 + level) / 2, n - 1) * sd / Math.sqrt(n);
  return { n, mean, sd, lower: mean - half, upper: mean + half, level };
}
