// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { crashSchema as decisionCrashSchema, provenanceSchema, samplesSchema } from "../rundir/decision_file.ts";
import { usageSchema } from "../rundir/usage_json.ts";
import { shaSchema } from "../rundir/run_record.ts";

/**
 * What several commands' `--json` share: the benchmark's two quantities and
 * its relative change, each side's mean, a crash, a failure, a cancel, a
 * calibration. Each is the contract of the code that builds it (its type
 * is `z.input` of the schema here), and `outerloop schema output` prints
 * them as JSON Schema.
 */

const nullableNum = () => z.nullable(z.number());

/** What every interval of `--json` carries: its pairs, its mean and bounds, and their confidence. */
const intervalFields = () => ({
  n: wholeNumber(1),
  mean: z.number(),
  lower: nullableNum(),
  upper: nullableNum(),
  confidence: nullableNum(),
});

/** `improvement`: the estimate the verdict rests on, positive = better; null until decided (and for a crash). */
export const improvementSchema = lazy(() =>
  z.nullable(strict({
    ...intervalFields(),
    method: z.string(),
    set_aside: z.array(wholeNumber(1)),
    // why they were set aside, in the words every surface uses; null when none was
    set_aside_why: z.nullable(z.string()),
  }))
);

/** `difference`: the mean candidate − baseline and its interval (the improvement's through the direction). */
export const differenceSchema = lazy(() =>
  z.nullable(strict({
    ...intervalFields(),
  }))
);

/** `relative`: the ratio candidate / baseline with its interval; null for a metric not always > 0. */
export const relativeSchema = lazy(() =>
  z.nullable(strict({
    ...intervalFields(),
    method: z.string(),
  }))
);

/** `means`: each side's mean over every pair it measured; null for a side with no value. */
export const meansSchema = lazy(() => strict({ baseline: nullableNum(), candidate: nullableNum() }));

/** A crash: which measure, its job, how and why, the message with the log's tail. */
export const crashSchema = decisionCrashSchema;

/** failure.json's failure as `--json` gives it. */
export const failureSchema = lazy(() =>
  strict({
    measure: z.nullable(z.string()),
    job_id: z.nullable(z.string()),
    kind: z.nullable(z.string()),
    cause: z.nullable(z.string()),
    message: z.string(),
    failed_at: z.string(),
  })
);

/** A user's cancel. */
export const cancelledSchema = lazy(() => strict({ cancelled_at: z.string(), jobs: z.array(z.string()) }));

/** The run's states (`state`): where it stands. */
export const stateSchema = lazy(() =>
  z.enum(["parked", "measuring", "interrupted", "decided", "calibrated", "failed", "cancelled"])
);

/** A verdict, or a crash. */
export const verdictSchema = lazy(() => z.enum(["accept", "reject", "inconclusive", "crashed"]));

/** The spread of a calibration's pairs: improvement of the second measure over the first. */
const boundsSchema = lazy(() => strict({ mean: z.number(), lower: z.number(), upper: z.number() }));

/** A calibration's report (calibration.json's keys but the run's identity, date and raw values). */
export const calibrationShape = lazy(() => ({
  benchmark: z.string(),
  base_sha: shaSchema(),
  metric: z.string(),
  direction: z.enum(["maximize", "minimize"]),
  n: wholeNumber(2),
  mean: z.number(),
  lower: z.number(),
  upper: z.number(),
  improvement: boundsSchema(),
  sd: z.number(),
  confidence: z.number(),
  biased: z.boolean(),
  detectable: z.array(strict({ pairs: wholeNumber(1), effect: z.number() })),
  siblings: z.record(
    z.string(),
    strict({
      metric: z.string(),
      direction: z.enum(["maximize", "minimize"]),
      n: wholeNumber(2),
      improvement: boundsSchema(),
      sd: z.number(),
      biased: z.boolean(),
    }),
  ),
  suggestion: strict({
    min_effect: z.number(),
    repeats: wholeNumber(1),
    max_repeats: wholeNumber(1),
    siblings: z.record(z.string(), strict({ tolerance: z.number() })),
    // the contract's `noise` to paste: the sd of the A/A pairs the ESD test at 1% kept, and how many; null
    // when fewer than 2 were kept (and for a calibration file written before it existed)
    noise: z.nullable(strict({ sd: z.number(), pairs: wholeNumber(2) })),
  }),
  derivation: z.nullable(z.string()),
  // min_effect and each sibling's tolerance as percentages, for a benchmark whose every value is positive
  relative_suggestion: z.nullable(strict({
    min_effect: z.string(),
    siblings: z.record(z.string(), z.nullable(z.string())),
  })),
  seeds: z.array(wholeNumber(0)),
  differences: z.array(z.number()),
}));

/** A measure's resource use, where the scheduler said. */
export const usageOutSchema = usageSchema;
export { provenanceSchema, samplesSchema };
