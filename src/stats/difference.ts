import { type Direction, improvementOfDifference } from "./improvement.ts";

/**
 * The difference: candidate − baseline, the sign of the raw numbers,
 * whatever the direction. `decision.json`'s `deltas` are differences (the
 * reference's key), as are the per-pair dots of a difference chart. A
 * difference is never shown as an improvement: for a `minimize` metric a
 * negative difference is an improvement (improvement.ts).
 */

/** One pair's difference: candidate − baseline. */
export function difference(baseline: number, candidate: number): number {
  return candidate - baseline;
}

/** The difference that an improvement means in `direction` (the inverse of `improvementOfDifference`). */
export function differenceOfImprovement(direction: Direction, improvement: number): number {
  return improvementOfDifference(direction, improvement);
}

/**
 * The difference interval that an improvement interval [lower, upper] means
 * in `direction`: the same for `maximize`, [−upper, −lower] for `minimize`
 * (the ends swap, so lower ≤ upper still).
 */
export function differenceRange(direction: Direction, lower: number, upper: number): [number, number] {
  return direction === "maximize" ? [lower, upper] : [-upper, -lower];
}
