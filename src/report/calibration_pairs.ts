import { BASE_ARM, benchmarkName, CANDIDATE_ARM } from "../measure/measure_name.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { improvementOfDifference } from "../stats/improvement.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";

/**
 * A calibration's A/A pairs and words as every report shows them (the
 * Markdown, the HTML page and the runs table): each pair's two measures of
 * the base tree, its seed and its improvement (the second over the first,
 * in the contract's direction: calibration.json's difference read through
 * the direction, as the record itself defines it), the A/A interval's
 * sentence against 0 and the suggested contract keys, ready to paste.
 */

/** One A/A pair: the base tree measured twice on one seed. */
export interface AaPair {
  /** 1-based. */
  readonly pair: number;
  readonly seed: number | null;
  readonly first: number | null;
  readonly second: number | null;
  /** The second measure's improvement over the first (positive = better). */
  readonly improvement: number;
}

/** The calibration's pairs, pair 1 first. */
export function aaPairs(c: CalibrationRecord): AaPair[] {
  return c.differences.map((d, i) => ({
    pair: i + 1,
    seed: c.seeds[i] ?? null,
    first: c.values[benchmarkName(BASE_ARM, i + 1)] ?? null,
    second: c.values[benchmarkName(CANDIDATE_ARM, i + 1)] ?? null,
    improvement: improvementOfDifference(c.direction, d),
  }));
}

/** 4 significant digits: noise figures are estimates, not measurements. */
export const stat = formatStat;

/** A change (an improvement, an interval's end) to 4 significant digits, with its sign: "+0.04", "-0.012". */
export function signedStat(x: number): string {
  const text = formatStat(x);
  return x > 0 && !/^[0.]+$/.test(text) ? `+${text}` : text;
}

/** The A/A interval as `[-0.012, +0.010] 95%`. */
export function aaInterval(c: { lower: number; upper: number; confidence: number }): string {
  return `[${signedStat(c.lower)}, ${signedStat(c.upper)}] ${formatPercent(c.confidence)}`;
}

/** The bias warning: the A/A interval excludes 0. */
export const BIAS_WARNING = "the A/A interval excludes 0: the two sides of a pair differ systematically " +
  "(order, warm caches?); fix that before trusting a verdict on this benchmark";

/** What the A/A interval says about 0, in a few words. */
export function zeroWords(c: CalibrationRecord): string {
  return c.biased ? "it excludes 0: biased (see the warning)" : "it contains 0, as an A/A run should";
}

/** The suggested contract keys as one JSON object, ready to paste into the contract. */
export function suggestedKeys(c: CalibrationRecord): string {
  const s = c.suggestion;
  return JSON.stringify({
    min_effect: s.minEffect,
    repeats: s.repeats,
    max_repeats: s.maxRepeats,
    ...(s.noise === undefined ? {} : { noise: s.noise }),
  });
}

/** Each sibling's suggested tolerance, `name: {"tolerance": …}`; [] without siblings. */
export function suggestedSiblingKeys(c: CalibrationRecord): string[] {
  return Object.entries(c.suggestion.siblings).map(([name, s]) =>
    `${name}: ${JSON.stringify({ tolerance: s.tolerance })}`
  );
}

/** How the suggestion was derived, or why the file cannot say. */
export function derivationWords(c: CalibrationRecord): string {
  return c.derivation ??
    "this calibration.json predates the derivation note: its min_effect came from the A/A interval's end";
}

/** The power table's heading: fixed designs of one look at the calibration's level. */
export function powerHeading(c: CalibrationRecord): string {
  return `Fixed designs, one look at ${formatPercent(c.confidence)} (false accepts at most ` +
    `${formatPercent((1 - c.confidence) / 2)}): the improvement found with 80% power`;
}

/** The power table's rows: pairs, the effect beyond min_effect, and at the suggested min_effect. */
export function powerRows(c: CalibrationRecord): [string, string, string][] {
  return c.detectable.map((d) => [
    String(d.pairs) + (d.pairs === 1 ? " (no interval)" : ""),
    stat(d.effect),
    stat(c.suggestion.minEffect + d.effect),
  ]);
}

/** The power table's header. */
export function powerHeader(c: CalibrationRecord): [string, string, string] {
  return ["pairs", "beyond min_effect", `at min_effect ${formatNumber(c.suggestion.minEffect)}`];
}

/**
 * A calibration's row in a runs table: the verdict column says what it
 * suggests (`sd 0.0089, suggests min_effect 0.03`, `biased:` first when the
 * interval excludes 0), the improvement columns hold the A/A mean and
 * interval, n its pairs. All "" for a calibration still measuring.
 */
export function calibrationCells(c: CalibrationRecord | null | undefined): {
  readonly words: string;
  readonly mean: string;
  readonly interval: string;
  readonly n: string;
} {
  if (c === null || c === undefined) return { words: "", mean: "", interval: "", n: "" };
  return {
    words: `${c.biased ? "biased: " : ""}sd ${stat(c.sd)}, suggests min_effect ${formatNumber(c.suggestion.minEffect)}`,
    mean: signedStat(c.mean),
    interval: `A/A ${aaInterval(c)}`,
    n: String(c.n),
  };
}

/** What a calibration without its result says: still measuring (or failed, cancelled), or its file not read. */
export function noCalibrationWords(state: string): string {
  return state === "calibrated"
    ? "The run is calibrated, but its calibration.json was not read into this report."
    : `No calibration yet: the run is ${state}.`;
}
