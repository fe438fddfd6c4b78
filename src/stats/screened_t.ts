import type { IntervalMethod, LocationInterval } from "./location_interval.ts";
import { STUDENT_T } from "./location_interval.ts";
import { normalQuantile } from "./normal.ts";
import { tQuantile } from "./student_t.ts";

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
 * do this often: 10% of runs stalled is 19% of pairs with one stalled run,
 * so a look at 9 pairs has two or more stalled pairs a quarter of the time.
 *
 * The screen: the generalized extreme studentized deviate test (Rosner
 * 1983), for up to r = ⌊(n − 1)/2⌋ outlying pairs at the level
 * `SCREEN_ALPHA` (less for an interval of very high confidence: `screenAlpha`). Step i (i = 1..r) takes the pair furthest from the mean of
 * those left, Rᵢ = max |dⱼ − mean| / sd over the n − i + 1 left, and sets it
 * apart; with p = 1 − α/(2(n − i + 1)) and t the Student t quantile at p with
 * n − i − 1 degrees of freedom,
 *
 *   λᵢ = (n − i)·t / √((n − i − 1 + t²)(n − i + 1)),
 *
 * and the pairs set aside are the first k taken, k the largest i with Rᵢ >
 * λᵢ (none when no Rᵢ exceeds its λᵢ). Because it reads every step up to r
 * before it counts, one stall cannot hide another (masking): the median-
 * and-MAD rule this replaced (Hampel's, `hampelPairs`) lost its scale to two
 * stalls among nine and then set neither aside, which capped the accepts of
 * a clearly better candidate at 85% under the stall model of issue 22 even
 * with no early stop at all; this screen lifts that cap to 95%
 * (bench/verdict_stalls.json). At α = 0.2% a sample of clean normal pairs
 * loses one or more to the screen with probability 0.2–0.5% at every n from
 * 4 to 50 (simulated, 10⁵ samples each: scripts/simulate_stalls.ts), below
 * the Hampel rule's 0.5–1.6%; when it loses none the interval is exactly
 * Student t's. Below 6 pairs the screen sets nothing aside (at n ≤ 5 the
 * test can take out one pair at most and the kept sample is too small to
 * trust narrower); there it only speaks to the futility rule
 * (`futilityBases`). Equal improvements (sd 0) screen nothing.
 *
 * Why the rest is still a sample the t interval holds for. A stall is an
 * event of the machine, independent of the benchmark's own noise; setting
 * aside the pairs that stalled leaves a random number of unstalled pairs,
 * an independent sample of the clean improvements, on which the t interval
 * keeps its level (exact for normal improvements). A clean pair set aside by
 * chance (under 0.5% of samples) makes that look's interval a little narrow;
 * scripts/simulate_verdict.ts measures the verdict's false accepts on every
 * noise shape and default design (bench/verdict_simulation.json, `methods`).
 *
 * What the estimate means: the mean improvement of the pairs that did not
 * stall. A stall multiplies a run's time, so the mean of all improvements
 * also carries the stalls' share; the screened mean is what the candidate
 * does on a machine that behaves.
 *
 * References: B. Rosner, "Percentage points for a generalized ESD
 * many-outlier procedure", Technometrics 25 (1983) 165–172; F. R. Hampel,
 * "The influence curve and its role in robust estimation", JASA 69 (1974)
 * 383–393 (the MAD and its 1.4826); Z. Šidák, "Rectangular confidence
 * regions for the means of multivariate normal distributions", JASA 62
 * (1967) 626–633.
 */

/** The fewest pairs the screen sets aside from; below, it only speaks to the futility rule. */
export const SCREEN_FROM = 6;

/** The generalized ESD test's level: the chance a clean normal sample loses any pair (0.2–0.5% simulated). */
export const SCREEN_ALPHA = 0.002;

/**
 * The ESD test's level at an interval of two-sided `level`: `SCREEN_ALPHA`,
 * or an eighth of the interval's own 1 − level when that is smaller. A clean
 * pair set aside narrows the interval, so the screen's chance of doing so
 * must stay well below the chance the interval is let to miss: at the
 * default designs' looks (1 − level ≈ 1.7%) this is `SCREEN_ALPHA`; at 0.2%
 * for a look of confidence 0.99375 split over three looks, the screen alone
 * lifted false accepts to 0.375% against a bound of 0.3125% (40 000 climbs;
 * 0.305% for the Hampel rule, 0.285% for Student t).
 */
export function screenAlpha(level: number, alpha: number = SCREEN_ALPHA): number {
  return Math.min(alpha, (1 - level) / 8);
}

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

/**
 * c_n of the Hampel rule (the screen of decisions made before the ESD test,
 * and the futility rule's fence): how many MADN from the median a pair of n
 * must lie to be set aside, c_n = z_n·(1 + 10.5/n + 40/n²) with z_n =
 * Φ⁻¹(1 − (1 − 0.99^(1/n))/2), the Šidák bound n normal deviations all stay
 * within with probability 99%, the factor fitted to the simulated 99th
 * percentile of max|dᵢ − m| / MADN in normal samples (scripts/screen_threshold.py).
 */
export function screenThreshold(n: number): number {
  const z = normalQuantile(1 - (1 - 0.99 ** (1 / n)) / 2);
  return z * (1 + 10.5 / n + 40 / (n * n));
}

/** How a Hampel rule picks its threshold from the number of pairs. */
export type Threshold = (n: number) => number;

/** Which pairs (0-based) a screen sets aside, in the order of their improvements: lowest first. */
export type Screen = (improvements: readonly number[]) => number[];

const lowestFirst = (xs: readonly number[], picked: number[]): number[] =>
  picked.sort((a, b) => xs[a]! - xs[b]! || a - b);

/**
 * The Hampel rule: the pairs further than threshold(n)·MADN from the median;
 * none below `from` pairs or when the MAD is 0 (half the improvements or
 * more equal).
 */
export function hampelPairs(
  xs: readonly number[],
  threshold: Threshold = screenThreshold,
  from: number = SCREEN_FROM,
): number[] {
  if (xs.length < from) return [];
  const m = median(xs);
  const s = madn(xs);
  if (!(s > 0)) return [];
  const c = threshold(xs.length) * s;
  return lowestFirst(xs, xs.flatMap((x, i) => (Math.abs(x - m) > c ? [i] : [])));
}

/** Mean and sd (n − 1) of `xs` at the indices `at`. */
function meanSd(xs: readonly number[], at: readonly number[]): { mean: number; sd: number } {
  const mean = at.reduce((a, i) => a + xs[i]!, 0) / at.length;
  const ss = at.reduce((a, i) => a + (xs[i]! - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (at.length - 1)) };
}

/**
 * The generalized ESD test (see the module doc): the pairs it finds
 * outlying at level `alpha`, up to ⌊(n − 1)/2⌋ of them; none below `from`
 * pairs or when the pairs left have no spread.
 */
export function esdPairs(xs: readonly number[], alpha: number = SCREEN_ALPHA, from: number = SCREEN_FROM): number[] {
  const n = xs.length;
  if (n < from || n < 3) return [];
  let left = xs.map((_, i) => i);
  const taken: number[] = [];
  let outlying = 0;
  const r = Math.floor((n - 1) / 2);
  for (let i = 1; i <= r; i++) {
    const { mean, sd } = meanSd(xs, left);
    if (!(sd > 0)) break;
    let far = 0;
    left.forEach((j, k) => {
      if (Math.abs(xs[j]! - mean) > Math.abs(xs[left[far]!]! - mean)) far = k;
    });
    const deviate = Math.abs(xs[left[far]!]! - mean) / sd;
    const m = n - i + 1;
    const t = tQuantile(1 - alpha / (2 * m), m - 2);
    const lambda = (m - 1) * t / Math.sqrt((m - 2 + t * t) * m);
    taken.push(left[far]!);
    left = left.filter((_, k) => k !== far);
    if (deviate > lambda) outlying = i;
  }
  return lowestFirst(xs, taken.slice(0, outlying));
}

/**
 * The two-sided `level` screened t interval: Student t on the improvements
 * the screen keeps. `n` stays the pairs measured; `mean`, `sd`, `se` and
 * `df` are the kept pairs'; `setAside` the screened pairs. Nothing screened
 * (in particular below 6 pairs, and n = 1): exactly `STUDENT_T.interval`.
 */
export function screenedInterval(
  improvements: readonly number[],
  level: number,
  screen: Screen = (xs) => esdPairs(xs, screenAlpha(level)),
): LocationInterval {
  return intervalWithout(improvements, screen(improvements), level);
}

function intervalWithout(xs: readonly number[], out: readonly number[], level: number): LocationInterval {
  if (out.length === 0) return STUDENT_T.interval(xs, level);
  const kept = xs.filter((_, i) => !out.includes(i));
  return { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: [...out] };
}

/** The level of the futility rule's deletion test: loose, since a stop is non-binding (see `futilityBases`). */
const FUTILITY_DELETION_ALPHA = 0.2;

/** How far from the median (in MADN) a pair lies to be left out of the futility rule's fence basis. */
const FUTILITY_FENCE = 5;

/**
 * The one pair (if exactly one) whose studentized deletion residual,
 * (dₖ − mean₋ₖ) / (sd₋ₖ·√(1 + 1/(n − 1))), which is Student t with n − 2
 * degrees of freedom for normal pairs, passes the Bonferroni bound
 * t(1 − α/(2n), n − 2): the test that can still single out one stalled pair
 * among three, where the ESD test cannot (its Rᵢ is bounded by (n − 1)/√n).
 */
function deletionPair(xs: readonly number[], alpha: number = FUTILITY_DELETION_ALPHA): number[] {
  const n = xs.length;
  if (n < 3) return [];
  const bound = tQuantile(1 - alpha / (2 * n), n - 2);
  const all = xs.map((_, i) => i);
  const out = all.filter((k) => {
    const { mean, sd } = meanSd(xs, all.filter((j) => j !== k));
    return sd > 0 && Math.abs(xs[k]! - mean) / (sd * Math.sqrt(1 + 1 / (n - 1))) > bound;
  });
  return out.length === 1 ? out : [];
}

/** What the futility rule asks besides the look's interval (`futilityBases`). */
export type FutilityLooks = "robust" | "flagged" | "each" | "none";

/**
 * What the futility rule predicts from (it stops only when every one of
 * them is futile): the look's interval and, by default (`"robust"`), at any
 * n ≥ 3, the Student t interval without the one pair the deletion test
 * (`deletionPair`, at 20%) singles out, and the one without the pairs
 * beyond 5 MADN of the median — each when it sets a pair aside and keeps
 * two. Only the futility rule reads these, and a stop is non-binding (it
 * can only turn an accept into a reject or inconclusive verdict), so they
 * may be far looser than the verdict's screen without touching false
 * accepts; what they cost is pairs on clean noise, which
 * bench/verdict_stalls.json measures. So one stalled pair at the first
 * looks, or two among six, makes the climb go on instead of stopping it.
 * `"flagged"` (the rule before issue 22): below `from` pairs, the interval
 * without the pairs the Hampel rule flags from 3 pairs; `"each"`: every
 * leave-one-out interval below `from`; `"none"`: the look's interval alone.
 */
export function futilityBases(
  improvements: readonly number[],
  level: number,
  screen: Screen = (xs) => esdPairs(xs, screenAlpha(level)),
  looks: FutilityLooks = "robust",
  from: number = SCREEN_FROM,
): LocationInterval[] {
  const now = screenedInterval(improvements, level, screen);
  const n = improvements.length;
  if (n < 3 || looks === "none") return [now];
  const without = (out: number[]) =>
    out.length === 0 || n - out.length < 2 ? [] : [intervalWithout(improvements, out, level)];
  if (looks === "robust") {
    return [
      now,
      ...without(deletionPair(improvements)),
      ...without(hampelPairs(improvements, () => FUTILITY_FENCE, 3)),
    ];
  }
  if (n >= from) return [now];
  if (looks === "each") return [now, ...improvements.flatMap((_, i) => without([i]))];
  return [now, ...without(hampelPairs(improvements, screenThreshold, 3))];
}

/** What `screenedT` may vary (the simulation's alternatives; the defaults are the verdict's). */
export interface ScreenOptions {
  /** The verdict's screen: the generalized ESD test (default) or the Hampel rule of decisions before it. */
  readonly screen?: "esd" | "hampel";
  /** The Hampel rule's threshold (default c_n). */
  readonly threshold?: Threshold;
  /** Its words in the method's detail ("10 MADN"); none for the default bound. */
  readonly thresholdName?: string;
  readonly from?: number;
  /** The ESD test's level (default `SCREEN_ALPHA`). */
  readonly alpha?: number;
  /** What futility asks besides the look's interval (`futilityBases`; default "robust"). */
  readonly futilityLooks?: FutilityLooks;
}

/** The words that name the ESD screen in a method's detail, which `methodNamed` reads back. */
export const ESD_WORDS = "by the generalized ESD test";

/** The screened t as a verdict method. */
export function screenedT(o: ScreenOptions = {}): IntervalMethod {
  const from = o.from ?? SCREEN_FROM;
  const looks = o.futilityLooks ?? "robust";
  const hampel = o.screen === "hampel";
  const threshold = o.threshold ?? screenThreshold;
  const alpha = o.alpha ?? SCREEN_ALPHA;
  const screenAt = (level: number): Screen =>
    hampel ? (xs) => hampelPairs(xs, threshold, from) : (xs) => esdPairs(xs, screenAlpha(level, alpha), from);
  const beyond = o.thresholdName ?? "";
  const futilityWords = looks === "each"
    ? "; leave-one-out futility"
    : looks === "none"
    ? "; futility on the look alone"
    : "";
  return {
    name: "screened Student t",
    detail: `outlying pairs${beyond === "" ? "" : ` (beyond ${beyond})`} set aside from ${from} pairs on` +
      (hampel ? "" : `, ${ESD_WORDS}${alpha === SCREEN_ALPHA ? "" : ` at ${alpha * 100}%`}`) + futilityWords,
    interval: (xs, level) => screenedInterval(xs, level, screenAt(level)),
    df: (n) => n - 1,
    futilityBases: (xs, level) => futilityBases(xs, level, screenAt(level), looks, from),
  };
}

/** The verdict's method for two pairs or more. */
export const SCREENED_T: IntervalMethod = screenedT();

/**
 * The screened t of decisions made before the ESD test (the Hampel rule, the
 * futility bases of then): how `methodNamed` checks them, so a verdict that
 * was right under its own rule is not disputed by a later one.
 */
export const HAMPEL_SCREENED_T: IntervalMethod = screenedT({ screen: "hampel", futilityLooks: "flagged" });
