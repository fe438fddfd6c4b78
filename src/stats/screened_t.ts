import type { IntervalMethod, LocationInterval } from "./location_interval.ts";
import { STUDENT_T } from "./location_interval.ts";
import { normalQuantile } from "./normal.ts";

/**
 * The screened Student t interval: the verdict's interval for two pairs or
 * more. Pairs whose improvement lies implausibly far from the others' (a job
 * that stalled, shared its node, was preempted and resumed) are set aside,
 * and the Student t interval is taken on the rest.
 *
 * Why. Student t weighs every pair alike: one pair 12 sd out among ten moves
 * the mean by 1.2 sd and multiplies the sd by about 4, so a clear improvement
 * looks undecided and the futility rule stops the climb, though 9 pairs of
 * 10 favour the candidate (seen on a real parser benchmark). Shared machines
 * do this often: 10% of runs stalled is 19% of pairs with one stalled run.
 *
 * The screen (Hampel's rejection rule, with a threshold that keeps clean
 * data whole). With m the median of the n improvements and MADN = 1.4826 ·
 * median |dᵢ − m| (the median absolute deviation, scaled to estimate a
 * normal sd; Hampel 1974), pair i is set aside when |dᵢ − m| > c_n·MADN,
 *
 *   c_n = z_n·(1 + 10.5/n + 40/n²),   z_n = Φ⁻¹(1 − (1 − 0.99^(1/n))/2).
 *
 * z_n is the Šidák bound that n independent normal deviations all stay
 * within with probability 99% when σ is known; the factor pays for
 * estimating σ by the MAD of n values, which is unsteady at small n. It is
 * fitted to the simulated 99th percentile of max|dᵢ − m| / MADN in normal
 * samples (scripts/screen_threshold.py; 2·10⁶ samples for n ≤ 7, at least
 * 4·10⁴ above), percentile vs c_n: 10.05 vs 12.13 at n = 6, 10.7 vs 10.57 at
 * 7, 7.95 vs 9.48 at 8, 6.93 vs 8.06 at 10, 5.22 vs 5.65 at 20, 4.31 vs 4.31
 * at 100, 4.44 vs 4.43 at 800. So a sample of clean normal pairs loses one to
 * the screen with probability 0.5–1.1% at every n ≥ 6, and when it loses
 * none the interval is exactly Student t's. At 3 to 5 pairs the MAD is too unsteady to act on (the
 * same bound set aside clean pairs 1.6% of the time at n = 5, and the verdict's
 * false accepts rose by 0.4 points: bench/verdict_simulation.json): there the
 * screen sets nothing aside and only speaks to the futility rule
 * (`futilityBases`). Equal improvements (MAD 0) screen nothing.
 *
 * Why the rest is still a sample the t interval holds for. A stall is an
 * event of the machine, independent of the benchmark's own noise; setting
 * aside the pairs that stalled leaves a random number of unstalled pairs,
 * an independent sample of the clean improvements, on which the t interval
 * keeps its level (exact for normal improvements). A clean pair set aside by
 * chance (about 1% of samples) makes that look's interval a little narrow;
 * scripts/simulate_verdict.ts measures the verdict's false accepts on every
 * noise shape and default design (bench/verdict_simulation.json, `methods`).
 *
 * What the estimate means: the mean improvement of the pairs that did not
 * stall. A stall multiplies a run's time, so the mean of all improvements
 * also carries the stalls' share; the screened mean is what the candidate
 * does on a machine that behaves.
 *
 * References: F. R. Hampel, "The influence curve and its role in robust
 * estimation", JASA 69 (1974) 383–393 (the MAD and its 1.4826); F. R.
 * Hampel, "The breakdown points of the mean combined with some rejection
 * rules", Technometrics 27 (1985) 95–107 (the mean after an MAD rejection
 * rule); Z. Šidák, "Rectangular confidence regions for the means of
 * multivariate normal distributions", JASA 62 (1967) 626–633.
 */

/** The fewest pairs the screen sets aside from; below, it only speaks to the futility rule. */
export const SCREEN_FROM = 6;

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length;
  return m % 2 === 1 ? s[(m - 1) / 2]! : (s[m / 2 - 1]! + s[m / 2]!) / 2;
}

/** The normalized MAD: 1.4826·median |x − median|, a consistent estimate of a normal sd. */
export function madn(xs: readonly number[]): number {
  const m = median(xs);
  return 1.4826 * median(xs.map((x) => Math.abs(x - m)));
}

/** c_n: how many MADN from the median a pair of n must lie to be set aside (see the module doc). */
export function screenThreshold(n: number): number {
  const z = normalQuantile(1 - (1 - 0.99 ** (1 / n)) / 2);
  return z * (1 + 10.5 / n + 40 / (n * n));
}

/** How a screen picks its threshold from the number of pairs. */
export type Threshold = (n: number) => number;

/**
 * The pairs (0-based, in the order of their improvements: lowest first) that
 * lie further than threshold(n)·MADN from the median; none below `from`
 * pairs or when the MAD is 0 (half the improvements or more equal).
 */
export function outlyingPairs(
  xs: readonly number[],
  threshold: Threshold = screenThreshold,
  from: number = SCREEN_FROM,
): number[] {
  if (xs.length < from) return [];
  const m = median(xs);
  const s = madn(xs);
  if (!(s > 0)) return [];
  const c = threshold(xs.length) * s;
  return xs.flatMap((x, i) => (Math.abs(x - m) > c ? [i] : [])).sort((a, b) => xs[a]! - xs[b]! || a - b);
}

/**
 * The two-sided `level` screened t interval: Student t on the improvements
 * the screen keeps. `n` stays the pairs measured; `mean`, `sd`, `se` and
 * `df` are the kept pairs'; `setAside` the screened pairs. Nothing screened
 * (in particular n < 4, and n = 1): exactly `STUDENT_T.interval`.
 */
export function screenedInterval(
  improvements: readonly number[],
  level: number,
  threshold: Threshold = screenThreshold,
  from: number = SCREEN_FROM,
): LocationInterval {
  const out = outlyingPairs(improvements, threshold, from);
  if (out.length === 0) return STUDENT_T.interval(improvements, level);
  const kept = improvements.filter((_, i) => !out.includes(i));
  return { ...STUDENT_T.interval(kept, level), n: improvements.length, setAside: out };
}

/**
 * What the futility rule predicts from (it stops only when every one of
 * them is futile). From `from` pairs on, the screened interval alone. Below,
 * the screen does not set pairs aside (too few to trust the MAD's verdict on
 * an interval), but from 3 pairs it still looks: when it finds outlying
 * pairs, the Student t interval without them is asked too (`looks: "flagged"`),
 * or — `looks: "each"` — every leave-one-out interval; so one stalled pair
 * among the first few cannot end a climb the screen would rescue at the next
 * look.
 */
export function futilityBases(
  improvements: readonly number[],
  level: number,
  threshold: Threshold = screenThreshold,
  from: number = SCREEN_FROM,
  looks: FutilityLooks = "flagged",
  fence: number = FUTILITY_FENCE,
): LocationInterval[] {
  const now = screenedInterval(improvements, level, threshold, from);
  const n = improvements.length;
  if (looks === "robust") return robustBases(improvements, level, now, fence);
  if (n >= from || n < 3 || looks === "none") return [now];
  if (looks === "each") {
    const without = (i: number) => STUDENT_T.interval(improvements.filter((_, j) => j !== i), level);
    return [now, ...improvements.map((_, i) => without(i))];
  }
  const out = outlyingPairs(improvements, threshold, 3);
  if (out.length === 0) return [now];
  return [now, STUDENT_T.interval(improvements.filter((_, i) => !out.includes(i)), level)];
}

/** What the futility rule asks besides the look's interval (`futilityBases`). */
export type FutilityLooks = "flagged" | "each" | "none" | "robust";

/** How far from the median (in MADN) a pair lies to be left out of the robust futility basis. */
export const FUTILITY_FENCE = 5;

/**
 * The "robust" bases: the look's interval and, at any n ≥ 3 when pairs lie
 * beyond `fence` MADN of the median, the Student t interval without them.
 * Only the futility rule reads these (a stop is non-binding), so the fence
 * may be far tighter than the screen's c_n without touching false accepts.
 */
function robustBases(
  improvements: readonly number[],
  level: number,
  now: LocationInterval,
  fence: number,
): LocationInterval[] {
  const n = improvements.length;
  if (n < 3) return [now];
  const out = outlyingPairs(improvements, () => fence, 3);
  if (out.length === 0 || n - out.length < 2) return [now];
  return [now, STUDENT_T.interval(improvements.filter((_, i) => !out.includes(i)), level)];
}

/** What `screenedT` may vary (the simulation's alternatives; the defaults are the verdict's). */
export interface ScreenOptions {
  readonly threshold?: Threshold;
  /** Its words in the method's detail ("10 MADN"); none for the default bound. */
  readonly thresholdName?: string;
  readonly from?: number;
  /** What futility asks below `from` pairs besides the look's interval (`futilityBases`; default "flagged"). */
  readonly futilityLooks?: FutilityLooks;
  /** The robust bases' fence in MADN (default `FUTILITY_FENCE`). */
  readonly futilityFence?: number;
}

/** The screened t as a verdict method. */
export function screenedT(o: ScreenOptions = {}): IntervalMethod {
  const threshold = o.threshold ?? screenThreshold;
  const from = o.from ?? SCREEN_FROM;
  const looks = o.futilityLooks ?? "flagged";
  const beyond = o.thresholdName ?? "";
  return {
    name: "screened Student t",
    detail: `outlying pairs${beyond === "" ? "" : ` (beyond ${beyond})`} set aside from ${from} pairs on` +
      (looks === "flagged"
        ? ""
        : looks === "each"
        ? "; leave-one-out futility"
        : looks === "robust"
        ? ""
        : "; futility on the look alone"),
    interval: (xs, level) => screenedInterval(xs, level, threshold, from),
    df: (n) => n - 1,
    futilityBases: (xs, level) => futilityBases(xs, level, threshold, from, looks, o.futilityFence),
  };
}

/** The verdict's method for two pairs or more. */
export const SCREENED_T: IntervalMethod = screenedT();
