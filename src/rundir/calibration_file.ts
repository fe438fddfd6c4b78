import * as z from "zod/mini";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { type Direction, improvementOfDifference } from "../stats/improvement.ts";
import { differenceOfImprovement } from "../stats/difference.ts";
import type { Calibration, Spread } from "../stats/power.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile, runIdentity, type RunRecord, RunRecordError, shaSchema } from "./run_record.ts";

/**
 * `calibration.json`: what an A/A run (`outerloop calibrate`: the base tree
 * measured against itself in seed-paired runs) says about the benchmark's
 * noise — the spread of the paired differences, the smallest effect a fixed
 * design of 3, 5, 10, 20 and 30 pairs finds with 80% power, each sibling's
 * spread, a suggested `min_effect` / `repeats` / `max_repeats` and sibling
 * `tolerance`, and the sentence that says how they were derived — with every
 * raw value and seed, so the file alone says how it was reached. Its presence
 * marks a calibration run as done.
 *
 * `mean`, `lower` and `upper` are of the difference (second measure − first,
 * the sign of the raw numbers), as the first files wrote them; `improvement`
 * holds the same three in the contract's direction. Files written before
 * siblings, `direction`, `improvement` and `derivation` were recorded still
 * read: the improvement then follows from the run record's direction, and
 * there are no sibling figures and no derivation.
 */

const boundsSchema = lazy(() => strict({ mean: z.number(), lower: z.number(), upper: z.number() }));
const directionSchema = lazy(() => z.enum(["maximize", "minimize"]));

const calibrationSchema = lazy(() =>
  strict({
    base_sha: shaSchema(),
    run_identity: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
    calibrated_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    benchmark: z.string(),
    metric: z.string(),
    direction: z.optional(directionSchema()),
    confidence: z.number(),
    n: wholeNumber(2),
    mean: z.number(),
    lower: z.number(),
    upper: z.number(),
    improvement: z.optional(boundsSchema()),
    sd: z.number().check(z.minimum(0)),
    biased: z.boolean(),
    detectable: z.array(strict({ pairs: wholeNumber(1), effect: z.number() })),
    siblings: z.optional(z.record(
      z.string(),
      strict({
        metric: z.string(),
        direction: directionSchema(),
        n: wholeNumber(2),
        improvement: boundsSchema(),
        sd: z.number().check(z.minimum(0)),
        biased: z.boolean(),
      }),
    )),
    suggestion: strict({
      min_effect: z.number().check(z.minimum(0)),
      repeats: wholeNumber(1),
      max_repeats: wholeNumber(1),
      siblings: z.optional(z.record(z.string(), strict({ tolerance: z.number().check(z.minimum(0)) }))),
      noise: z.optional(strict({ sd: z.number().check(z.positive()), pairs: wholeNumber(2) })),
    }),
    derivation: z.optional(z.string()),
    // the suggestion's relative form, for a benchmark whose every value is positive (null: no ratio);
    // absent in files from before it
    relative_suggestion: z.optional(z.nullable(strict({
      min_effect: z.string(),
      siblings: z.record(z.string(), z.nullable(z.string())),
    }))),
    seeds: z.array(wholeNumber(0)),
    values: z.record(z.string(), z.number()),
    differences: z.array(z.number()),
  })
);

/**
 * The suggestion in its relative form (evaluation/calibration.ts
 * `relativeSuggestionOf`): `min_effect` and each sibling's `tolerance` as
 * percentages (`"2.2%"`), calibrated on the log ratios; a sibling with a
 * value <= 0 has none (null).
 */
export interface RelativeSuggestion {
  readonly minEffect: string;
  /** By sibling name: its tolerance as a percentage, or null when it has a value <= 0. */
  readonly siblings: Readonly<Record<string, string | null>>;
}

/** A sibling's A/A spread, in its own direction, with what it measures. */
export interface SiblingSpread extends Spread {
  readonly metric: string;
  readonly direction: Direction;
}

/**
 * A calibration with what it was made from. `mean`, `lower` and `upper`
 * (from `Calibration`) are of the improvement in `direction`; the file's
 * keys of those names hold the difference (`differenceBounds`).
 */
export interface CalibrationRecord extends Calibration {
  readonly baseSha: string;
  readonly runIdentity: string;
  /** ISO 8601. */
  readonly calibratedAt: string;
  readonly benchmark: string;
  readonly metric: string;
  readonly direction: Direction;
  readonly confidence: number;
  /** Each sibling's spread by sibling name; empty for a file written before siblings were calibrated. */
  readonly siblings: Readonly<Record<string, SiblingSpread>>;
  /** How the suggestion was derived, in a sentence with its numbers; null for a file written before it was recorded. */
  readonly derivation: string | null;
  /**
   * The suggestion's relative form, for a benchmark whose every value is
   * positive; null when a value is <= 0 (no ratio), and for a file from before it.
   */
  readonly relativeSuggestion: RelativeSuggestion | null;
  /** Each pair's seed. */
  readonly seeds: readonly number[];
  /** Every measured value by measure name (`baseline`, `candidate`, `baseline#2`, …: both sides are the base tree). */
  readonly values: Readonly<Record<string, number>>;
  /** Pair i's difference (second side minus first) at index i − 1. */
  readonly differences: readonly number[];
}

/** The mean and interval of the difference (second − first) that the calibration's improvement means. */
function differenceBounds(c: CalibrationRecord): { mean: number; lower: number; upper: number } {
  const a = differenceOfImprovement(c.direction, c.lower);
  const b = differenceOfImprovement(c.direction, c.upper);
  return { mean: differenceOfImprovement(c.direction, c.mean), lower: Math.min(a, b), upper: Math.max(a, b) };
}

/** Writes `calibration.json` atomically. */
export function writeCalibration(dir: RunDir, c: CalibrationRecord): void {
  atomicWriteJson(dir.calibration, {
    base_sha: c.baseSha,
    run_identity: c.runIdentity,
    calibrated_at: c.calibratedAt,
    benchmark: c.benchmark,
    metric: c.metric,
    direction: c.direction,
    confidence: c.confidence,
    n: c.n,
    ...differenceBounds(c),
    improvement: { mean: c.mean, lower: c.lower, upper: c.upper },
    sd: c.sd,
    biased: c.biased,
    detectable: c.detectable.map((d) => ({ pairs: d.pairs, effect: d.effect })),
    siblings: Object.fromEntries(
      Object.entries(c.siblings).map(([name, s]) => [name, {
        metric: s.metric,
        direction: s.direction,
        n: s.n,
        improvement: { mean: s.mean, lower: s.lower, upper: s.upper },
        sd: s.sd,
        biased: s.biased,
      }]),
    ),
    suggestion: {
      min_effect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      max_repeats: c.suggestion.maxRepeats,
      siblings: Object.fromEntries(
        Object.entries(c.suggestion.siblings).map(([name, s]) => [name, { tolerance: s.tolerance }]),
      ),
      ...(c.suggestion.noise === undefined ? {} : { noise: { ...c.suggestion.noise } }),
    },
    ...(c.derivation === null ? {} : { derivation: c.derivation }),
    relative_suggestion: relativeSuggestionJson(c.relativeSuggestion),
    seeds: [...c.seeds],
    values: { ...c.values },
    differences: [...c.differences],
  });
}

/** The run's calibration, or null; one of another run is refused (as a decision is). */
export function readCalibration(dir: RunDir, record: RunRecord): CalibrationRecord | null {
  const j = readRunFile(dir.calibration, calibrationSchema, "calibration");
  if (j === null) return null;
  if (j.run_identity !== runIdentity(record)) {
    throw new RunRecordError(
      dir.calibration,
      "other-run",
      `The calibration ${JSON.stringify(dir.calibration)} belongs to another run than ` +
        `${JSON.stringify(dir.runRecord)}; it is left as it is: move it away, or pick a new --run-dir`,
    );
  }
  const direction = j.direction ?? record.contract.direction;
  const ends = [improvementOfDifference(direction, j.lower), improvementOfDifference(direction, j.upper)];
  const improvement = j.improvement ??
    { mean: improvementOfDifference(direction, j.mean), lower: Math.min(...ends), upper: Math.max(...ends) };
  return {
    baseSha: j.base_sha,
    runIdentity: j.run_identity,
    calibratedAt: j.calibrated_at,
    benchmark: j.benchmark,
    metric: j.metric,
    direction,
    confidence: j.confidence,
    n: j.n,
    ...improvement,
    sd: j.sd,
    biased: j.biased,
    detectable: j.detectable,
    siblings: Object.fromEntries(
      Object.entries(j.siblings ?? {}).map(([name, s]) => [name, {
        metric: s.metric,
        direction: s.direction,
        n: s.n,
        ...s.improvement,
        sd: s.sd,
        biased: s.biased,
      }]),
    ),
    suggestion: {
      minEffect: j.suggestion.min_effect,
      repeats: j.suggestion.repeats,
      maxRepeats: j.suggestion.max_repeats,
      siblings: j.suggestion.siblings ?? {},
      ...(j.suggestion.noise === undefined ? {} : { noise: { ...j.suggestion.noise } }),
    },
    derivation: j.derivation ?? null,
    relativeSuggestion: j.relative_suggestion == null
      ? null
      : { minEffect: j.relative_suggestion.min_effect, siblings: j.relative_suggestion.siblings },
    seeds: j.seeds,
    values: j.values,
    differences: j.differences,
  };
}

/** A calibration as `--json` prints it: calibration.json's keys (`mean`, `lower`, `upper` of the difference). */
export function calibrationJson(c: CalibrationRecord) {
  return {
    benchmark: c.benchmark,
    base_sha: c.baseSha,
    metric: c.metric,
    direction: c.direction,
    n: c.n,
    ...differenceBounds(c),
    improvement: { mean: c.mean, lower: c.lower, upper: c.upper },
    sd: c.sd,
    confidence: c.confidence,
    biased: c.biased,
    detectable: c.detectable,
    siblings: Object.fromEntries(
      Object.entries(c.siblings).map(([name, s]) => [name, {
        metric: s.metric,
        direction: s.direction,
        n: s.n,
        improvement: { mean: s.mean, lower: s.lower, upper: s.upper },
        sd: s.sd,
        biased: s.biased,
      }]),
    ),
    suggestion: {
      min_effect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      max_repeats: c.suggestion.maxRepeats,
      siblings: c.suggestion.siblings,
      noise: c.suggestion.noise ?? null,
    },
    derivation: c.derivation,
    relative_suggestion: relativeSuggestionJson(c.relativeSuggestion),
    seeds: c.seeds,
    differences: c.differences,
  };
}

/** The relative suggestion in its stored form. */
function relativeSuggestionJson(r: RelativeSuggestion | null) {
  return r === null ? null : { min_effect: r.minEffect, siblings: { ...r.siblings } };
}
