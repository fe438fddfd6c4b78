// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import type { Frozen } from "./frozen.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { estimateSchema, standingEstimateSchema } from "../rundir/decision_file.ts";
import { shaSchema } from "../rundir/run_record.ts";
import {
  calibrationShape,
  crashSchema,
  differenceSchema,
  improvementSchema,
  meansSchema,
  relativeSchema,
  verdictSchema,
} from "./pieces.ts";

/**
 * What `measure`, `resume`, `wait` and `calibrate` print with `--json` when
 * a pass ends, one object told apart by `status`:
 *
 * - `decided`: the verdict (exit 0 / 10 / 11 / 12) with decision.json's keys
 *   and the quantities under their own names; a round adds `winner` and
 *   `candidates`;
 * - `parked` (exit 75): the pending job ids and the wake job;
 * - `calibrated` (exit 0): a calibration's report;
 * - `waiting` (exit 75): `wait` or `--wait` stopped waiting (`stopped`:
 *   `interrupted` by Ctrl-C, or `timeout`), the run untouched.
 *
 * Errors and signals are `error_output.ts`'s.
 */

/** A round's candidate as `resume --json` and `wait --json` give it. */
const outcomeCandidateSchema = lazy(() =>
  strict({
    arm: wholeNumber(1),
    measure: z.string(),
    ref: z.string(),
    sha: shaSchema(),
    label: z.string(),
    winner: z.boolean(),
    mean: z.nullable(z.number()),
    verdict: verdictSchema(),
    standing: z.enum(["in-play", "dropped", "decided"]),
    because: z.nullable(z.string()),
    pairs: wholeNumber(0),
    screen: z.nullable(estimateSchema()),
    estimate: z.nullable(estimateSchema()),
    crash: z.nullable(crashSchema()),
  })
);

/** `status: "decided"`. */
export const decidedSchema = lazy(() =>
  strict({
    status: z.literal("decided"),
    run_dir: z.string(),
    verdict: verdictSchema(),
    values: z.record(z.string(), z.number()),
    deltas: z.record(z.string(), z.number()),
    means: meansSchema(),
    improvement: improvementSchema(),
    difference: differenceSchema(),
    relative: relativeSchema(),
    reasons: z.array(z.string()),
    crash: z.nullable(crashSchema()),
    base_sha: shaSchema(),
    candidate_sha: z.nullable(shaSchema()),
    // what the candidate tries (a round: its winner's): --label, else its commit's subject; "" when none is known
    label: z.string(),
    baseline_source: z.enum(["cached", "measured"]),
    decided_at: z.string(),
    // a repeated design's facts (decision.json's keys)
    seeds: z.optional(z.array(wholeNumber(0))),
    n: z.optional(wholeNumber(1)),
    outcome: z.optional(z.string()),
    benchmark: z.optional(estimateSchema()),
    siblings: z.optional(z.record(z.string(), standingEstimateSchema())),
    guards: z.optional(z.record(z.string(), standingEstimateSchema())),
    // a round's
    winner: z.optional(z.nullable(strict({
      arm: wholeNumber(1),
      measure: z.string(),
      ref: z.string(),
      sha: shaSchema(),
      first_pair: wholeNumber(1),
      last_pair: wholeNumber(1),
      estimate: estimateSchema(),
    }))),
    candidates: z.optional(z.array(outcomeCandidateSchema())),
  })
);

/** `status: "parked"`: waiting on `pending` behind wake job `wake_job` (its dependency, or its begin time). */
export const parkedSchema = lazy(() =>
  strict({
    status: z.literal("parked"),
    run_dir: z.string(),
    pending: z.array(z.string()),
    wake_job: z.string(),
    dependency: z.nullable(z.string()),
    begin: z.nullable(z.string()),
  })
);

/** `status: "calibrated"`: a calibration's report. */
export const calibratedSchema = lazy(() =>
  strict({ status: z.literal("calibrated"), run_dir: z.string(), ...calibrationShape() })
);

/** `status: "waiting"`: stopped waiting, the run untouched. */
export const waitingSchema = lazy(() =>
  strict({ status: z.literal("waiting"), run_dir: z.string(), stopped: z.enum(["interrupted", "timeout"]) })
);

/** `calibrate --pairing all` before every pairing is calibrated: the pairings calibrated so far. */
export const pairingsParkedSchema = lazy(() =>
  strict({ status: z.literal("parked"), run_dir: z.string(), calibrated: z.array(z.string()) })
);

/** `calibrate --pairing all` once every pairing is calibrated: them side by side and the one recommended. */
export const pairingsComparedSchema = lazy(() =>
  strict({
    status: z.literal("calibrated"),
    run_dir: z.string(),
    compared_at_pairs: wholeNumber(1),
    pairings: z.array(strict({
      pairing: z.string(),
      n: wholeNumber(1),
      sd: z.number(),
      detectable: z.nullable(z.number()),
      suggestion: strict({ min_effect: z.number(), repeats: wholeNumber(1), max_repeats: wholeNumber(1) }),
    })),
    node_share: z.nullable(z.number()),
    recommended: z.nullable(z.string()),
    reason: z.string(),
  })
);

/** A decided outcome's type, which `run_output.ts` builds. */
export type DecidedJson = Frozen<z.input<ReturnType<typeof decidedSchema>>>;
/** A round candidate's, in it. */
export type OutcomeCandidateJson = Frozen<z.input<ReturnType<typeof outcomeCandidateSchema>>>;
/** A parked outcome's. */
export type ParkedJson = Frozen<z.input<ReturnType<typeof parkedSchema>>>;
/** A calibration's. */
export type CalibratedJson = Frozen<z.input<ReturnType<typeof calibratedSchema>>>;
/** A wait that stopped. */
export type WaitingJson = Frozen<z.input<ReturnType<typeof waitingSchema>>>;
/** What `calibrate --pairing all` prints: the pairings calibrated so far, or their comparison. */
export type PairingsJson =
  | Frozen<z.input<ReturnType<typeof pairingsParkedSchema>>>
  | Frozen<z.input<ReturnType<typeof pairingsComparedSchema>>>;
