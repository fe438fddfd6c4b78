import { BASE_ARM, parseMeasureName } from "../measure/measure_name.ts";

/**
 * Each side's mean of the benchmark: the mean of every value an arm measured
 * (the baseline is arm 0, the candidates 1 … K), over all its pairs — what a
 * loop would average from `values` itself (`candidate`, `candidate#2`, …).
 * A crashed candidate's side is the mean of what it measured before the
 * crash; the baseline's is every pair's, never pair 1's alone. Siblings and
 * guards are not the benchmark: left out.
 */

/** The mean of every benchmark value `arm` measured, or null when it measured none. */
export function armMean(values: Readonly<Record<string, number>>, arm: number): number | null {
  let sum = 0;
  let n = 0;
  for (const [name, v] of Object.entries(values)) {
    const ref = parseMeasureName(name);
    if (ref === null || ref.sibling !== null || ref.arm !== arm || !Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

/** The baseline's mean and the candidate `arm`'s (null for none: a round without a winner). */
export function sideMeans(
  values: Readonly<Record<string, number>>,
  arm: number | null,
): { readonly baseline: number | null; readonly candidate: number | null } {
  return { baseline: armMean(values, BASE_ARM), candidate: arm === null ? null : armMean(values, arm) };
}
