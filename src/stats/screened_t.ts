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
 * The screen (Hampel's rejection rule with a threshold that keeps clean data
 * whole). With m the median of the n improvements and MADN = 1.4826·median
 * |dᵢ − m| (the median absolute deviation, scaled to estimate a normal sd;
 * Hampel 1974), pair i is set aside when |dᵢ − m| > c_n·MADN, where
 *
 *   c_n = z_n·(1 + 10.5/n + 40/n²),   z_n = Φ⁻¹(1 − (1 − 0.99^(1/n))/2).
 *
 * z_n is the Šidák threshold that n independent normal deviations all stay
 * within with probability 99% when σ is known; the factor pays for
 * estimating σ by the MAD of n values, which is unsteady at small n. It is
 * fitted, conservatively, to the simulated 99th percentile of max|dᵢ − m| /
 * MADN in normal samples (scripts/screen_threshold.py; 2·10⁶ samples for
 * n ≤ 7, ≥ 4·10⁴ above): 15.96 (n = 4) vs c 18.5, 10.1 (6) vs 12.1, 7.93
 * (8) vs 9.48, 6.88 (10) vs 8.06, 5.21 (20) vs 5.65, 4.32 (100) vs 4.31,
 * 4.43 (800) vs 4.43. So a sample of clean normal pairs loses a pair to the
 * screen with probability about 1% or less at every n ≥ 4 (1.6% at n = 5),
 * and when it loses none — 99 times in 100 — the interval is exactly Student
 * t's. Below `SCREEN_FROM` (4) pairs the MAD cannot tell (at n = 3 the 99th
 * percentile is 112 MADN): nothing is screened. Equal improvements (MAD 0)
 * screen nothing either.
 *
 * Why the rest is still a valid sample. A stall is an event of the machine,
 * independent of the benchmark's own noise; a pair set aside for its stall
 * leaves a random number of unstalled pairs that are an independent sample
 * of the clean improvements, on which the t interval keeps its level (exact
 * for normal improvements). A clean pair set aside by chance (≤ ~1%) makes
 * that look's interval a little narrow; scripts/simulate_verdict.ts measures
 * the verdict's false-accept rate on every noise shape and design to check
 * that the whole stays within (1 − confidence)/2 (bench/verdict_simulation.json,
 * `methods`).
 *
 * What the estimate means: the mean improvement of the unstalled pairs. A
 * stall multiplies a run's time, so the mean of all improvements also
 * carries the stalls' share; the screened mean is what the candidate does on
 * a machine that behaves.
 *
 * References: F. R. Hampel, "The influence curve and its role in robust
 * estimation", JASA 69 (1974) 383–393 (the MAD, its 1.4826); F. R. Hampel,
 * "The breakdown points of the mean combined with some rejection rules",
 * Technometrics 27 (1985) 95–107 (the mean after an MAD rejection rule);
 * Z. Šidák, JASA 62 (1967) 626–633.
 */

/** The fewest pairs the screen judges: at 3 the MAD of three values cannot name an outlier. */
export const SCREEN_FROM = 4;

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
 * them is futile): the look's interval and, while the screen cannot judge
 * (fewer than `from` pairs, at least 3), also the Student t interval of every
 * subset that leaves one pair out — so one stalled pair among the first
 * three cannot end a climb the screen would have rescued at the next look.
 * From `from` pairs on, the screened interval alone.
 */
export function futilityBases(
  improvements: readonly number[],
  level: number,
  threshold: Threshold = screenThreshold,
  from: number = SCREEN_FROM,
  below: number = from,
): LocationInterval[] {
  const now = screenedInterval(improvements, level, threshold, from);
  const n = improvements.length;
  if (n >= below || n < 3) return [now];
  const without = (i: number) => STUDENT_T.interval(improvements.filter((_, j) => j !== i), level);
  return [now, ...improvements.map((_, i) => without(i))];
}

/** What `screenedT` may vary (the simulation's alternatives; the defaults are the verdict's). */
export interface ScreenOptions {
  readonly threshold?: Threshold;
  /** Its words in the method's name; default "c_n". */
  readonly thresholdName?: string;
  readonly from?: number;
  /** Whether futility also asks the leave-one-out intervals below `from` (default true). */
  readonly leaveOneOut?: boolean;
  /** Below how many pairs futility asks the leave-one-out intervals (default `from`). */
  readonly leaveOneOutBelow?: number;
}

/** The screened t as a verdict method. */
export function screenedT(o: ScreenOptions = {}): IntervalMethod {
  const threshold = o.threshold ?? screenThreshold;
  const from = o.from ?? SCREEN_FROM;
  const loo = o.leaveOneOut ?? true;
  const below = o.leaveOneOutBelow ?? from;
  const beyond = o.thresholdName ?? "the 1% outlier bound";
  return {
    name: `Student t with outlying pairs set aside (beyond ${beyond} in MADs of the median, from ${from} pairs)` +
      (loo ? (below === from ? "" : `, leave-one-out futility below ${below}`) : ", futility on the look alone"),
    interval: (xs, level) => screenedInterval(xs, level, threshold, from),
    df: (n) => n - 1,
    ...(loo ? { futilityBases: (xs: readonly number[], level: number) => futilityBases(xs, level, threshold, from, below) } : {}),
  };
}

/** The verdict's method for two pairs or more. */
export const SCREENED_T: IntervalMethod = screenedT();
