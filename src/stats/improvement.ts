// Tested by tests/stats/paired_test.ts
/**
 * The improvement: how much better the candidate is than the baseline, in
 * the metric's units, in the direction's favour — candidate − baseline when
 * higher is better, baseline − candidate when lower is better — so positive
 * is better whatever the direction. Every verdict, interval and suggestion
 * reads the improvement; a person's "how much faster" is an improvement.
 *
 * Its twin is the difference (difference.ts): candidate − baseline, the sign
 * of the raw numbers. The two never share a name, a key or an axis.
 */

/** Which way is better for a metric. */
export type Direction = "maximize" | "minimize";

/** One pair's improvement: candidate − baseline for `maximize`, baseline − candidate for `minimize`. */
export function improvement(direction: Direction, baseline: number, candidate: number): number {
  return direction === "maximize" ? candidate - baseline : baseline - candidate;
}

/** The improvement that a difference (candidate − baseline) means in `direction`. */
export function improvementOfDifference(direction: Direction, difference: number): number {
  return direction === "maximize" ? difference : -difference;
}

/** How a person reads the direction: "higher is better" / "lower is better". */
export function betterWords(direction: Direction): string {
  return direction === "maximize" ? "higher is better" : "lower is better";
}
