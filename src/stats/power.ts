import { type CalibratedNoise, calibratedNoise } from "./calibrated_screen.ts";
import { normalCdf, normalQuantile } from "./normal.ts";
import { pairedInterval } from "./paired.ts";
import { type Design, finalLook, sequentialDesign } from "./sequential.ts";
import { logGamma } from "./special.ts";
import { tQuantile } from "./student_t.ts";

/**
 * Calibration: what an A/A run (the base tree measured against itself, in
 * seed-paired runs) says about a benchmark's noise, and so what min_effect,
 * repeats, max_repeats and each sibling's tolerance mean for it. It works on
 * improvements (a pair's second measure over its first, in the contract's
 * direction), so a benchmark minimized as `t` and maximized as `−t` gives the
 * same numbers. Every suggestion is a function of the spread (sd), the A/A
 * pairs (n) and the confidence alone — never of the A/A mean, which only the
 * bias check reads — so two A/A runs of the same noise suggest the same keys
 * up to the sampling error of their sd. The numbers assume normal paired
 * differences with the A/A spread; heavy-tailed noise makes the t interval
 * conservative (wider), so real power is a little lower than shown.
 */

/**
 * The pair counts of the calibration's power table: fixed designs of n ≥ 3
 * pairs, one look each at the contract's confidence — the same guarantee on
 * every row (false accepts at most (1 − confidence)/2), so the column falls as
 * n grows. One pair has no interval (no guarantee at all) and two need 11.5 sd:
 * neither is a row.
 */
export const POWER_TABLE_PAIRS = [3, 5, 10, 20, 30] as const;

/** The power of every suggestion: the bias check's for min_effect, the climb's last look's for max_repeats. */
export const SUGGESTION_POWER = 0.8;

/** The chance with which an unchanged sibling is held at the suggested design's last look. */
export const SIBLING_HELD = 0.9;

/** The looks of the suggested design: repeats = ⌈max_repeats / 3⌉. */
export const SUGGESTED_LOOKS = 3;

/** The most pairs a suggested design may use. */
export const MAX_SUGGESTED_PAIRS = 100;

/**
 * The chance that a fixed design of n ≥ 2 pairs accepts (lower bound above
 * min_effect) when the true improvement exceeds min_effect by `excess` sd:
 * E[Φ(√n·excess − t·V/√(n − 1))] over V ~ χ with n − 1 df — the exact
 * (noncentral t) power, by Simpson's rule over the χ density.
 */
function acceptChance(excess: number, n: number, level: number): number {
  const k = n - 1;
  const t = tQuantile((1 + level) / 2, k);
  const logNorm = (k / 2 - 1) * Math.log(2) + logGamma(k / 2);
  const top = Math.sqrt(k) + 12;
  const steps = 400;
  const h = top / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const v = i * h;
    const density = v === 0
      ? (k === 1 ? Math.exp(-logNorm) : 0)
      : Math.exp((k - 1) * Math.log(v) - v * v / 2 - logNorm);
    const weight = i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2;
    sum += weight * density * normalCdf(Math.sqrt(n) * excess - t * v / Math.sqrt(k));
  }
  return sum * h / 3;
}

/**
 * The smallest true improvement beyond min_effect that a fixed design of `n`
 * pairs, read at two-sided `level`, accepts with probability `power`, for
 * paired differences of standard deviation `sd`. For n ≥ 2 it is exact for
 * normal differences (solved by bisection on the noncentral-t power). For
 * n = 1 there is no interval: today's single-pair rule accepts when Δ >
 * min_effect, so the answer is z(power)·sd — with no confidence guarantee at
 * all (at a true improvement of exactly min_effect it accepts half the time).
 */
export function detectableEffect(sd: number, n: number, level: number, power = 0.8): number {
  if (!(sd >= 0 && Number.isInteger(n) && n >= 1)) throw new RangeError(`detectableEffect() needs sd >= 0, n >= 1`);
  if (n === 1) return normalQuantile(power) * sd;
  let lo = 0;
  let hi = 1;
  while (acceptChance(hi, n, level) < power) hi *= 2;
  for (let i = 0; i < 45; i++) {
    const mid = (lo + hi) / 2;
    if (acceptChance(mid, n, level) < power) lo = mid;
    else hi = mid;
  }
  return hi * sd;
}

/** Rounds up to two significant digits, so a suggested threshold is readable and never below the figure. */
function ceil2(x: number): number {
  if (x <= 0) return 0;
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((Math.ceil(x / unit - 1e-9) * unit).toPrecision(2));
}

/** The A/A improvements of one benchmark (the climbed one or a sibling): their spread and the bias check. */
export interface Spread {
  /** A/A pairs. */
  readonly n: number;
  /** The mean improvement of a pair's second measure over its first, and its interval at the contract's confidence (should contain 0). */
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  /** The standard deviation of one pair's improvement (= of its difference): the noise a verdict has to see through. */
  readonly sd: number;
  /** True when the A/A interval excludes 0: a systematic difference between the two sides of a pair. */
  readonly biased: boolean;
}

/** What calibrate suggests for the contract. */
export interface Suggestion {
  readonly minEffect: number;
  readonly repeats: number;
  readonly maxRepeats: number;
  /** Each sibling's suggested tolerance, by sibling name. */
  readonly siblings: Readonly<Record<string, { readonly tolerance: number }>>;
  /**
   * The contract's `noise`: the sd of the A/A pairs the calibrated fence's
   * own screen keeps (`calibratedNoise`), rounded up to two digits, with the
   * pairs kept; absent when they have no spread (or in a file from before it).
   */
  readonly noise?: CalibratedNoise;
}

/** What an A/A run says. */
export interface Calibration extends Spread {
  /** For each of `POWER_TABLE_PAIRS`: the improvement beyond min_effect a fixed design of that many pairs accepts with 80% power. */
  readonly detectable: readonly { readonly pairs: number; readonly effect: number }[];
  /** Each sibling's spread in its own direction, by sibling name. */
  readonly siblings: Readonly<Record<string, Spread>>;
  readonly suggestion: Suggestion;
}

/** The spread and bias check of A/A improvements (at least 2) at `confidence`. */
function spreadOf(improvements: readonly number[], confidence: number): Spread {
  if (improvements.length < 2) throw new RangeError("calibrate() needs at least 2 A/A pairs for a spread");
  const aa = pairedInterval(improvements, confidence);
  return {
    n: aa.n,
    mean: aa.mean,
    lower: aa.lower,
    upper: aa.upper,
    sd: aa.sd!,
    biased: aa.lower > 0 || aa.upper < 0,
  };
}

/**
 * The suggested min_effect for a spread `sd` seen over `n` A/A pairs: the
 * smallest systematic difference between the two sides of a pair (order,
 * slot, warm caches) that the A/A bias check — a two-sided interval at
 * `confidence` excluding 0 — finds with 80% power, rounded up to two
 * digits. The verdict's interval already guards against noise; what it
 * cannot see is a bias between baseline and candidate measures, and a bias
 * smaller than this passes the A/A check unseen, so an accept must clear it.
 * A longer A/A run rules out smaller biases and suggests less. It is
 * `detectableEffect(sd, n, confidence)`: the check's power against a bias b
 * is the power of a lower bound above 0 at a true mean b.
 */
export function suggestedMinEffect(sd: number, n: number, confidence: number): number {
  return ceil2(detectableEffect(sd, n, confidence, SUGGESTION_POWER));
}

/**
 * The suggested design: the fewest pairs m (at most 100) whose last look,
 * in a design of three looks (repeats ⌈m/3⌉), alone accepts an improvement
 * of min_effect + `target` with 80% power — conservative, since the earlier
 * looks only add accepts (futility aside). With target = k·sd it depends on
 * k and the confidence alone.
 */
export function suggestedDesign(sd: number, target: number, confidence: number): Design {
  for (let m = 2; m <= MAX_SUGGESTED_PAIRS; m++) {
    const design = sequentialDesign(Math.ceil(m / SUGGESTED_LOOKS), m, confidence);
    if (detectableEffect(sd, m, finalLook(design).level!, SUGGESTION_POWER) <= target) return design;
  }
  return sequentialDesign(Math.ceil(MAX_SUGGESTED_PAIRS / SUGGESTED_LOOKS), MAX_SUGGESTED_PAIRS, confidence);
}

/**
 * The suggested tolerance of a sibling whose A/A improvements have spread
 * `sd`, under `design`: the smallest tolerance such that an unchanged
 * sibling (true improvement 0) is held — its interval's lower end L ≥
 * −tolerance (look_rule.ts `siblingCall`) — with probability 90% at the
 * design's last look, rounded up to two digits. The last look is where an
 * unsure sibling turns an accept into an inconclusive verdict; at an earlier
 * look it only costs another batch (holding it 90% of the time at the first
 * look too would take about twice the tolerance at the suggested design). At
 * n pairs and level ℓ, P(L ≥ −tol) = P(mean + tol > t·s/√n) is the power of a
 * lower bound above 0 at a true mean tol, so the tolerance is
 * `detectableEffect(sd, n, ℓ, 0.9)`. A sibling that really got worse by the
 * tolerance is still held at most (1 − ℓ)/2 of the time.
 */
export function suggestedTolerance(sd: number, design: Design): number {
  const last = finalLook(design);
  return ceil2(detectableEffect(sd, last.n, last.level ?? design.confidence, SIBLING_HELD));
}

/**
 * The suggested `noise` of A/A improvements: `calibratedNoise` with its sd
 * rounded up to two digits (a wider fence, never a narrower one); null when
 * they have no spread.
 */
export function suggestedNoise(improvements: readonly number[]): CalibratedNoise | null {
  const noise = calibratedNoise(improvements);
  return noise === null ? null : { sd: ceil2(noise.sd), pairs: noise.pairs };
}

/** A noise to spread into a suggestion: {} for none. */
const noiseOf = (noise: CalibratedNoise | null) => (noise === null ? {} : { noise });

/**
 * Calibrates from the A/A improvements of the benchmark (at least 2; pair
 * i's second measure over its first, in the contract's direction) and of
 * each sibling (the same pairs, in the sibling's direction), at the
 * contract's `confidence`. `target` is the improvement beyond min_effect the
 * climb should find 80% of the time; by default one sd of a pair's
 * difference (what a single pair cannot tell from noise). The suggestion:
 * - min_effect: `suggestedMinEffect` (the bias the A/A check finds with 80% power);
 * - max_repeats and repeats: `suggestedDesign` (three looks, the last finds
 *   min_effect + target with 80% power);
 * - each sibling's tolerance: `suggestedTolerance` at that design (held at
 *   its last look with 90% when unchanged);
 * - noise: the sd of the pairs the calibrated fence's screen keeps, and
 *   how many (src/stats/calibrated_screen.ts `calibratedNoise`).
 */
export function calibrate(
  improvements: readonly number[],
  confidence: number,
  siblings: Readonly<Record<string, readonly number[]>> = {},
  target?: number,
): Calibration {
  const spread = spreadOf(improvements, confidence);
  const sd = spread.sd;
  const detectable = POWER_TABLE_PAIRS.map((pairs) => ({ pairs, effect: detectableEffect(sd, pairs, confidence) }));
  const design = suggestedDesign(sd, target ?? sd, confidence);
  const sibSpreads = Object.fromEntries(Object.entries(siblings).map(([name, xs]) => [name, spreadOf(xs, confidence)]));
  const tolerances = Object.fromEntries(
    Object.entries(sibSpreads).map(([name, s]) => [name, { tolerance: suggestedTolerance(s.sd, design) }]),
  );
  return {
    ...spread,
    detectable,
    siblings: sibSpreads,
    suggestion: {
      minEffect: suggestedMinEffect(sd, spread.n, confidence),
      repeats: design.repeats,
      maxRepeats: design.maxRepeats,
      siblings: tolerances,
      ...noiseOf(suggestedNoise(improvements)),
    },
  };
}
