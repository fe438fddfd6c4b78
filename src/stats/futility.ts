import { normalCdf } from "./normal.ts";
import type { PairedInterval } from "./paired.ts";
import { tQuantile } from "./student_t.ts";

/**
 * Stopping for futility: ending a climb early, as inconclusive, when an
 * accept has become unlikely, so that a candidate with no effect costs a few
 * pairs instead of max_repeats. A futility stop can only turn a would-be
 * accept into an inconclusive verdict, never the reverse, so it cannot raise
 * the false-accept rate: the guarantee of the α split holds whatever the
 * criterion (the stop is "non-binding"). What the criterion decides is how
 * much power it costs, which bench/verdict_simulation.json measures.
 *
 * The criterion is conditional power under the current trend (stochastic
 * curtailment; Lan, Simon & Halperin, 1982): suppose the true mean
 * improvement is the current mean and the spread stays the current sd; the
 * chance that the last look accepts is then
 *
 *   CP = Φ( N·(mean − min_effect − h_N) / (sd·√(N − n)) ),
 *
 * with n the pairs in hand, N = max_repeats and h_N = t((1 + level_N)/2,
 * N − 1)·sd/√N the last look's half-width. The climb stops when CP <
 * `FUTILITY_POWER`. The normal law for the future pairs' mean is an
 * approximation; it only steers effort, the guarantee does not rest on it.
 */

/**
 * Stop for futility when the conditional power is below this. In the
 * simulation (bench/verdict_simulation.json) any threshold from 0.05 to 0.3
 * cuts the pairs of a no-effect climb from ~12 to ~4.3; above 0.1 the power
 * lost under heavy-tailed noise takes the accept rate at effect 5 under 90%.
 */
export const FUTILITY_POWER = 0.1;

/**
 * The chance that the last look accepts, if the true mean improvement were
 * `now.mean` and the pairs' sd stayed `now.sd`. `finalN` and `finalLevel` are
 * the last look's pair count and level. Zero spread: 1 if the mean is above
 * min_effect, else 0 (nothing will move it). Needs n ≥ 2 and n < finalN.
 */
export function conditionalPower(now: PairedInterval, finalN: number, finalLevel: number, minEffect: number): number {
  if (now.sd === null || now.n >= finalN) {
    throw new RangeError(`conditionalPower() needs 2 <= n < ${finalN} pairs, got ${now.n}`);
  }
  if (now.sd === 0) return now.mean > minEffect ? 1 : 0;
  const half = tQuantile((1 + finalLevel) / 2, finalN - 1) * now.sd / Math.sqrt(finalN);
  return normalCdf(finalN * (now.mean - minEffect - half) / (now.sd * Math.sqrt(finalN - now.n)));
}

/** Whether the climb should stop for futility: conditional power below `threshold` (0 disables the rule). */
export function isFutile(
  now: PairedInterval,
  finalN: number,
  finalLevel: number,
  minEffect: number,
  threshold: number = FUTILITY_POWER,
): boolean {
  if (threshold <= 0) return false;
  return conditionalPower(now, finalN, finalLevel, minEffect) < threshold;
}
