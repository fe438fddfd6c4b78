import type { PairedInterval } from "./paired.ts";
import { bonferroniCritical, dunnettCritical } from "./round_critical.ts";
import { tCdf } from "./student_t.ts";

/**
 * One look of a simultaneous round: every candidate in play judged at once on
 * all its pairs, the look's share α_j of 1 − confidence (src/stats/sequential.ts)
 * spent on the whole family of K candidates, so that by the union bound over
 * the looks no candidate with a true improvement at or below min_effect is
 * accepted at any look with probability above (1 − confidence)/2.
 *
 * - Step-down acceptance (Holm 1979 for Bonferroni; the step-down Dunnett):
 *   order the candidates by T = (mean − min_effect)/se, largest first; the
 *   i-th (0-based) is accepted when it and every one before it clears the
 *   one-sided critical value at α_j/2 for K − i comparisons. Candidates
 *   dropped at earlier looks count among the K and are never accepted, which
 *   can only lower what the others clear (a step-down test is monotone).
 * - Each candidate's interval is mean ± c·se with c the single-step value for
 *   all K: the intervals cover every true mean at once with probability
 *   1 − α_j, so they are valid for whichever candidate is picked.
 * - Hsu-style domination (multiple comparisons with the best): a candidate
 *   whose paired difference from the leader has a lower bound above 0 at the
 *   same c is clearly not the best and cannot win.
 *
 * Dropping a candidate never raises the false-accept bound: the bound is over
 * all K at every look, in play or not.
 */

/** How the family's α is shared. */
export type Family = "bonferroni" | "dunnett";

/** The one-sided critical value for `k` comparisons at `alpha` with `df` degrees of freedom. */
export function familyCritical(family: Family, k: number, alpha: number, df: number): number {
  return family === "bonferroni" ? bonferroniCritical(k, alpha, df) : dunnettCritical(k, alpha, df);
}

/** The two-sided level of one interval mean ± c·se with df degrees of freedom. */
export function equivalentLevel(c: number, df: number): number {
  return 2 * tCdf(c, df) - 1;
}

/** A candidate at a simultaneous look. */
export interface SimultaneousInput {
  readonly arm: number;
  /** Its improvements over the look's pairs (every candidate in play has them all). */
  readonly improvements: readonly number[];
}

/** A candidate's statistics at the look. */
export interface SimultaneousCall {
  readonly arm: number;
  /** The simultaneous interval (mean ± c·se, the point [mean, mean] for one pair). */
  readonly interval: PairedInterval;
  /** Cleared its step-down critical value: lower end above min_effect at its step. */
  readonly clears: boolean;
  /** Clearly behind the leader (Hsu-style). */
  readonly dominated: boolean;
}

function meanSd(xs: readonly number[]): { mean: number; sd: number | null } {
  const n = xs.length;
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / n;
  if (n === 1) return { mean, sd: null };
  let q = 0;
  for (const x of xs) q += (x - mean) ** 2;
  return { mean, sd: Math.sqrt(q / (n - 1)) };
}

/**
 * The look's statistics for the candidates in play, `k` the family size (all
 * candidates of the round) and `alpha` the look's two-sided share α_j.
 */
export function simultaneousLook(
  family: Family,
  inputs: readonly SimultaneousInput[],
  k: number,
  alpha: number,
  minEffect: number,
): SimultaneousCall[] {
  const n = inputs[0]?.improvements.length ?? 0;
  if (n === 0 || inputs.some((c) => c.improvements.length !== n)) {
    throw new RangeError("simultaneousLook() needs candidates measured on the same pairs, at least one");
  }
  const df = Math.max(1, n - 1);
  const c = familyCritical(family, k, alpha / 2, df);
  const level = equivalentLevel(c, df);
  const stats = inputs.map((x) => {
    const { mean, sd } = meanSd(x.improvements);
    const se = sd === null ? 0 : sd / Math.sqrt(n);
    const interval: PairedInterval = { n, mean, sd, lower: mean - c * se, upper: mean + c * se, level };
    const t = se === 0 ? (mean > minEffect ? Infinity : -Infinity) : (mean - minEffect) / se;
    return { x, mean, se, interval, t };
  });
  const order = [...stats.keys()].sort((a, b) => stats[b]!.t - stats[a]!.t);
  const clears = new Set<number>();
  for (let i = 0; i < order.length; i++) {
    const s = stats[order[i]!]!;
    const ci = familyCritical(family, k - i, alpha / 2, df);
    if (!(s.se === 0 ? s.mean > minEffect : s.t > ci)) break;
    clears.add(order[i]!);
  }
  let lead = 0;
  stats.forEach((s, i) => {
    if (s.mean > stats[lead]!.mean) lead = i;
  });
  return stats.map((s, i) => {
    let dominated = false;
    if (i !== lead && n > 1) {
      const diffs = s.x.improvements.map((d, p) => stats[lead]!.x.improvements[p]! - d);
      const { mean, sd } = meanSd(diffs);
      dominated = mean - c * (sd ?? 0) / Math.sqrt(n) > 0;
    }
    return { arm: s.x.arm, interval: s.interval, clears: clears.has(i), dominated };
  });
}
