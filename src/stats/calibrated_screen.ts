import type { IntervalMethod, LocationInterval } from "./location_interval.ts";
import { STUDENT_T } from "./location_interval.ts";
import { esdPairs, futilityBases, median, SCREEN_FROM } from "./screened_t.ts";
import { tQuantile } from "./student_t.ts";

/**
 * The screen of a benchmark whose noise was calibrated: a pair is set aside
 * when its improvement lies beyond a fence around the look's median whose
 * width is a multiple of the noise an A/A calibration measured (the
 * contract's `noise`), not of the look's own spread.
 *
 * Why a scale from outside the look. A screen that reads the look's own
 * spread (the generalized ESD test, src/stats/screened_t.ts) cannot tell a
 * stalled pair from a clean sample whose other pairs happen to lie close:
 * at 9 pairs it finds one pair 8 per-run sd out (5.7 sd of a pair's
 * improvement) a third of the time at its 0.2% level, and raising the level
 * breaks the false-accept guarantee, because the clean samples it then
 * screens are those whose kept pairs lie close together, whose t interval
 * is far too narrow: given that the ESD test fired on clean normal pairs,
 * the interval of the rest missed on the favourable side 25–40% of the time
 * (scripts/simulate_outliers.ts). A fence at a fixed scale fires on a clean
 * sample only when one of its pairs is itself extreme, whatever the others
 * do: the interval of the rest then missed 3–5% of the time, so the fence
 * may fire several times as often as the ESD test for the same cost in
 * false accepts, and, scaled by 20 A/A pairs, finds that pair 5.7 sd out
 * 80–90% of the time.
 *
 * The fence at n pairs: |dᵢ − median| > t(1 − ε/(2n), m − 1) · sd · √(1 +
 * π/(2n)), sd and m the calibration's (`CalibratedNoise`), ε = `FENCE_ALPHA`:
 * a clean normal pair is beyond it with probability about ε/n (Student t
 * with the calibration's degrees of freedom carries its uncertainty in sd;
 * π/(2n) is the variance of the median of n normal pairs), so a clean look
 * loses a pair to it about ε of the time. From `SCREEN_FROM` pairs on, and
 * only while the fence keeps a strict majority of the pairs (more beyond it
 * means the median itself is in doubt: nothing is set aside). The interval
 * is Student t on the pairs kept, as the screened t's is.
 *
 * Futility reads the calibration too (`noiseClusters`): at every look from
 * 2 pairs, the group of pairs within a fence's width (at `GROUP_ALPHA`) of
 * the look's middle pair, when it leaves some pair out (the pairs that
 * stalled apart from it), is predicted from at the calibrated scale — one or
 * two clean pairs among three or four are enough to keep a clearly better
 * candidate in play, which the look's own spread cannot do. Only the middle
 * pair's group: a group around a stalled pair would keep a climb with no
 * effect going whenever a baseline stalled (a third more pairs with no
 * effect under 10% stalls on the baseline's side), for two to four points of
 * accepts where two of three pairs stalled the same way (simulated: the
 * rule "calibrated-every-group" of scripts/outlier_rules.ts). A stop stays
 * non-binding (it can only turn an accept into a reject or inconclusive
 * verdict), so this adds no false accepts; on clean noise a group smaller
 * than the look is rare.
 *
 * What it assumes: the benchmark's noise in the run is the calibration's.
 * Noisier than calibrated, the fence sets clean pairs aside more often than
 * ε and the interval narrows: with the calibration at 0.7× the run's noise
 * false accepts stayed within the bound (2.50% at worst), at 0.5× they
 * reached 3.1–3.9% (bench/verdict_outliers_aa_scale*.json,
 * verdict_outliers_aa_half.json). `calibrate` suggests the sd of its A/A
 * pairs after the ESD test at 1% (`calibratedNoise`); the guarantee is
 * measured on the family of bench/verdict_outliers.json with the
 * calibration drawn from the same noise.
 */

/** What an A/A calibration measured of the noise: the sd of one pair's improvement, and the pairs it rests on. */
export interface CalibratedNoise {
  /** The sd of one pair's improvement (second measure over the first of one tree), on the judged scale. */
  readonly sd: number;
  /** The A/A pairs `sd` rests on (its degrees of freedom are pairs − 1). */
  readonly pairs: number;
}

/**
 * The level of the generalized ESD test that clears an A/A calibration of
 * its stalls before its sd becomes the noise: looser than the verdict's, since
 * a clean pair set aside here only narrows the fence a little, while a stall
 * kept widens it for every later run.
 */
const NOISE_SCREEN_ALPHA = 0.01;

/**
 * The noise of an A/A calibration's improvements (second measure over the
 * first, per pair): their sd after the generalized ESD test at
 * `NOISE_SCREEN_ALPHA` set its outlying pairs aside, and the pairs kept; null
 * below 3 pairs or with no spread (nothing to scale a fence by).
 */
export function calibratedNoise(improvements: readonly number[]): CalibratedNoise | null {
  const out = esdPairs(improvements, NOISE_SCREEN_ALPHA);
  const kept = improvements.filter((_, i) => !out.includes(i));
  if (kept.length < 3) return null;
  const sd = STUDENT_T.interval(kept, 0.5).sd!;
  return sd > 0 ? { sd, pairs: kept.length } : null;
}

/** The chance a clean look loses a pair to the fence (ε). */
export const FENCE_ALPHA = 0.01;

/**
 * The ε of the futility rule's groups (`noiseClusters`): a quarter of the
 * fence's, so that clean heavy-tailed noise splits into groups less often
 * (a group smaller than the look keeps a climb going). Simulated: at 4/12
 * on t3 noise with no effect, 5.8 pairs a climb against 6.0 at ε and 5.5
 * without groups, the accepts under outliers within a point of ε's.
 */
export const GROUP_ALPHA = FENCE_ALPHA / 4;

/** The fence's half-width at a look of `n` pairs (see the module doc). */
export function fenceWidth(noise: CalibratedNoise, n: number, alpha: number = FENCE_ALPHA): number {
  return tQuantile(1 - alpha / (2 * n), noise.pairs - 1) * noise.sd * Math.sqrt(1 + Math.PI / (2 * n));
}

/**
 * The pairs (0-based) beyond the fence, lowest improvement first; none below
 * `from` pairs or when more than ⌊(n − 1)/2⌋ are beyond it.
 */
export function fencedPairs(
  xs: readonly number[],
  noise: CalibratedNoise,
  from: number = SCREEN_FROM,
  alpha: number = FENCE_ALPHA,
): number[] {
  const n = xs.length;
  if (n < from || n < 3) return [];
  const m = median(xs);
  const w = fenceWidth(noise, n, alpha);
  const out = xs.flatMap((x, i) => (Math.abs(x - m) > w ? [i] : []));
  if (out.length > Math.floor((n - 1) / 2)) return [];
  return out.sort((a, b) => xs[a]! - xs[b]! || a - b);
}

function without(xs: readonly number[], out: readonly number[], level: number): LocationInterval {
  if (out.length === 0) return STUDENT_T.interval(xs, level);
  const kept = xs.filter((_, i) => !out.includes(i));
  return { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: [...out] };
}

/**
 * The groups the futility rule also predicts from: for the middle pair of
 * the look (each of the two middle pairs at an even n; with `around`
 * "every", each pair), the pairs within a fence's width of it at `alpha`,
 * when that leaves some pair out; each as an
 * interval at the calibrated scale (mean of the group, sd and degrees of
 * freedom of the calibration, the pairs left out in `setAside`), which the
 * prediction (src/stats/futility.ts) reads from one pair on. Distinct groups
 * only, in the order of their first pair.
 */
export function noiseClusters(
  xs: readonly number[],
  noise: CalibratedNoise,
  level: number,
  alpha: number = GROUP_ALPHA,
  around: "middle" | "every" = "middle",
): LocationInterval[] {
  const n = xs.length;
  const w = fenceWidth(noise, n, alpha);
  const df = noise.pairs - 1;
  const seen = new Set<string>();
  const out: LocationInterval[] = [];
  // the middle pair's group (the two middle pairs' at an even n): the pairs around the median, which a stall
  // cannot take over unless it moved half the look; a group of stalled pairs alone would keep a climb with no
  // effect going
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = n % 2 === 1 ? [sorted[(n - 1) / 2]!] : [sorted[n / 2 - 1]!, sorted[n / 2]!];
  for (const x of around === "middle" ? middle : xs) {
    const kept = xs.flatMap((y, j) => (Math.abs(y - x) <= w ? [j] : []));
    const key = kept.join(",");
    if (kept.length === n || seen.has(key)) continue;
    seen.add(key);
    const mean = kept.reduce((a, j) => a + xs[j]!, 0) / kept.length;
    const half = tQuantile((1 + level) / 2, df) * noise.sd / Math.sqrt(kept.length);
    const setAside = xs.flatMap((_, j) => (kept.includes(j) ? [] : [j]));
    out.push({ n, mean, sd: noise.sd, lower: mean - half, upper: mean + half, level, df, setAside });
  }
  return out;
}

/**
 * Student t without the pairs `out` (0-based): the ratio of a calibrated
 * benchmark sets aside the pairs its estimate in the metric's units did,
 * since the fence's scale is in those units, not the log ratio's.
 */
export function pairsAsideT(out: readonly number[]): IntervalMethod {
  return { name: STUDENT_T.name, interval: (xs, level) => without(xs, out, level), df: (n) => n - 1 };
}

/** The words of the calibrated screen in a method's detail, which `methodNamed` reads back. */
export const CALIBRATED_WORDS = "beyond the fence of the calibrated noise";

/**
 * The screened t with the calibrated fence as its screen: the verdict's
 * method for a benchmark whose contract gives `noise`.
 */
export function calibratedT(
  noise: CalibratedNoise,
  groups: "middle" | "every" = "middle",
  groupAlpha: number = GROUP_ALPHA,
): IntervalMethod {
  const screen = (xs: readonly number[]) => fencedPairs(xs, noise);
  return {
    name: "screened Student t",
    detail: `outlying pairs set aside from ${SCREEN_FROM} pairs on, ${CALIBRATED_WORDS} ` +
      `(sd ${noise.sd} over ${noise.pairs} A/A pairs)`,
    interval: (xs, level) => without(xs, screen(xs), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => [
      ...futilityBases(xs, level, screen),
      ...(xs.length >= 2 ? noiseClusters(xs, noise, level, groupAlpha, groups) : []),
    ],
  };
}
