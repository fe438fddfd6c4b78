import type { PairedInterval } from "./paired.ts";
import type { LocationInterval } from "./location_interval.ts";
import { tCdf, tQuantile } from "./student_t.ts";

/**
 * Stopping for futility: ending a climb early when an accept has become
 * unlikely, so that a candidate with no effect costs a few pairs instead of
 * max_repeats. The stop ends the climb as the single-pair rule reads the
 * estimate, short of an accept (look_rule.ts `futilityVerdict`): reject when
 * the mean improvement is ≤ 0, else inconclusive. It can only turn a
 * would-be accept into a reject or an inconclusive verdict, never the
 * reverse, so it cannot raise the false-accept rate: the guarantee of the α
 * split holds whatever the criterion (the stop is "non-binding"). What the
 * criterion decides is how much power it costs and how often a real
 * improvement is rejected, which bench/verdict_simulation.json measures.
 *
 * The criterion is predictive power (Spiegelhalter, Freedman & Blackburn,
 * 1986): the chance, predicted from the n pairs in hand, that the last look
 * (N = max_repeats pairs) accepts. The last look accepts when its mean
 * exceeds min_effect + h_N, h_N = t((1 + level_N)/2, N − 1)·sd/√N (taking
 * the spread to stay at the current sd). The mean of the N − n pairs still to
 * come, Ȳ, satisfies (Ȳ − mean)/(sd·√(1/n + 1/(N − n))) ~ t with n − 1 df
 * for normal differences — the prediction-interval pivot, which carries both
 * the uncertainty of the current mean and that of the sd — so
 *
 *   P(accept at the last look) = T_{n−1}( (mean − min_effect − h_N)·√(N·n) / (sd·√(N − n)) ).
 *
 * With the screened t (src/stats/screened_t.ts) the same pivot is read from
 * the pairs the screen kept: mean, sd and n are theirs (`PredictedFrom`), so
 * a stalled pair set aside no longer inflates the sd that would make the
 * last look look out of reach. At any n from 3 the verdict also asks the
 * prediction of the interval without the pair a looser deletion test, or
 * the pairs a 5-MADN fence, singles out (`IntervalMethod.futilityBases`),
 * and stops only when every one says futile; a stop rejects only when no
 * basis's mean is above 0. The stop stays non-binding, so none of this can
 * raise false accepts; under the stall model of issue 22 it lifts the
 * accepts of a clearly better candidate from 61% to 85%
 * (bench/verdict_stalls.json).
 *
 * The climb stops when this is below `FUTILITY_POWER`. Unlike conditional
 * power under the current trend (which treats the current mean as the truth),
 * it does not stop on the wild estimates of 2 or 3 pairs: the simulation
 * found that conditional power, at the same pair savings, cut the accept
 * rate of a look-after-every-pair design from 89% to 74%.
 */

/**
 * Stop for futility when the predictive power is below this. The simulation
 * (bench/verdict_simulation.json) chose it: the cheapest threshold in pairs
 * per real improvement found whose accept rate at effect 5 stays at 90% or
 * more, by two standard errors, under every noise shape.
 */
export const FUTILITY_POWER = 0.2;

/**
 * What the prediction reads of the pairs in hand: a Student t interval
 * (`pairedInterval`: its mean and sd over n pairs, n − 1 df) or any method's
 * `LocationInterval`, whose pairs set aside do not count: for the screened t
 * (src/stats/screened_t.ts) the mean and sd of the m = n − |setAside| pairs
 * kept, with m − 1 df — the pivot of the interval the verdict reads, so the
 * prediction asks what that interval will say at the last look.
 */
export type PredictedFrom = PairedInterval & Partial<Pick<LocationInterval, "df" | "setAside">>;

/**
 * The chance, predicted from `now`, that the last look (`finalN` pairs, level
 * `finalLevel`, its t with `finalDf` degrees of freedom: N − 1 for Student t)
 * accepts: its mean clears min_effect by the last look's half-width. Zero
 * spread: 1 if the mean is above min_effect, else 0 (nothing will move it).
 * Needs 2 ≤ n < finalN; one pair is enough when `now` gives its degrees of
 * freedom (a spread from a calibration: src/stats/calibrated_screen.ts).
 */
export function predictivePower(
  now: PredictedFrom,
  finalN: number,
  finalLevel: number,
  minEffect: number,
  finalDf: number = finalN - 1,
): number {
  const sd = now.sd;
  const n = now.n - (now.setAside?.length ?? 0);
  // one pair is enough when the spread comes from elsewhere (a calibration: its df is given)
  if (sd === null || n < (now.df == null ? 2 : 1) || now.n >= finalN) {
    throw new RangeError(`predictivePower() needs 2 <= n < ${finalN} pairs, got ${now.n}`);
  }
  if (sd === 0) return now.mean > minEffect ? 1 : 0;
  const half = tQuantile((1 + finalLevel) / 2, finalDf) * sd / Math.sqrt(finalN);
  const z = (now.mean - minEffect - half) * Math.sqrt(finalN * n) / (sd * Math.sqrt(finalN - n));
  return tCdf(z, now.df ?? n - 1);
}

/** Whether the climb should stop for futility: predictive power below `threshold` (0 disables the rule). */
export function isFutile(
  now: PredictedFrom,
  finalN: number,
  finalLevel: number,
  minEffect: number,
  threshold: number = FUTILITY_POWER,
  finalDf: number = finalN - 1,
): boolean {
  if (threshold <= 0) return false;
  return predictivePower(now, finalN, finalLevel, minEffect, finalDf) < threshold;
}
