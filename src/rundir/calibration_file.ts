import * as z from "zod/mini";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { Calibration } from "../stats/power.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile, runIdentity, type RunRecord, RunRecordError, shaSchema } from "./run_record.ts";

/**
 * `calibration.json`: what an A/A run (`outerloop calibrate`: the base tree
 * measured against itself in seed-paired runs) says about the benchmark's
 * noise — the spread of the paired differences, the smallest effect a design
 * of 1, 3, 5, 10 and 20 pairs finds with 80% power, and a suggested
 * `min_effect` / `repeats` / `max_repeats` — with every raw value and seed,
 * so the file alone says how it was reached. Its presence marks a
 * calibration run as done.
 */

const calibrationSchema = lazy(() =>
  strict({
    base_sha: shaSchema(),
    run_identity: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
    calibrated_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    benchmark: z.string(),
    metric: z.string(),
    confidence: z.number(),
    n: wholeNumber(2),
    mean: z.number(),
    lower: z.number(),
    upper: z.number(),
    sd: z.number().check(z.minimum(0)),
    biased: z.boolean(),
    detectable: z.array(strict({ pairs: wholeNumber(1), effect: z.number() })),
    suggestion: strict({
      min_effect: z.number().check(z.minimum(0)),
      repeats: wholeNumber(1),
      max_repeats: wholeNumber(1),
    }),
    seeds: z.array(wholeNumber(0)),
    values: z.record(z.string(), z.number()),
    differences: z.array(z.number()),
  })
);

/** A calibration with what it was made from. */
export interface CalibrationRecord extends Calibration {
  readonly baseSha: string;
  readonly runIdentity: string;
  /** ISO 8601. */
  readonly calibratedAt: string;
  readonly benchmark: string;
  readonly metric: string;
  readonly confidence: number;
  /** Each pair's seed. */
  readonly seeds: readonly number[];
  /** Every measured value by measure name (`baseline`, `candidate`, `baseline#2`, …: both sides are the base tree). */
  readonly values: Readonly<Record<string, number>>;
  /** Pair i's difference (second side minus first) at index i − 1. */
  readonly differences: readonly number[];
}

/** Writes `calibration.json` atomically. */
export function writeCalibration(dir: RunDir, c: CalibrationRecord): void {
  atomicWriteJson(dir.calibration, {
    base_sha: c.baseSha,
    run_identity: c.runIdentity,
    calibrated_at: c.calibratedAt,
    benchmark: c.benchmark,
    metric: c.metric,
    confidence: c.confidence,
    n: c.n,
    mean: c.mean,
    lower: c.lower,
    upper: c.upper,
    sd: c.sd,
    biased: c.biased,
    detectable: c.detectable.map((d) => ({ pairs: d.pairs, effect: d.effect })),
    suggestion: {
      min_effect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      max_repeats: c.suggestion.maxRepeats,
    },
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
  return {
    baseSha: j.base_sha,
    runIdentity: j.run_identity,
    calibratedAt: j.calibrated_at,
    benchmark: j.benchmark,
    metric: j.metric,
    confidence: j.confidence,
    n: j.n,
    mean: j.mean,
    lower: j.lower,
    upper: j.upper,
    sd: j.sd,
    biased: j.biased,
    detectable: j.detectable,
    suggestion: {
      minEffect: j.suggestion.min_effect,
      repeats: j.suggestion.repeats,
      maxRepeats: j.suggestion.max_repeats,
    },
    seeds: j.seeds,
    values: j.values,
    differences: j.differences,
  };
}
