// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import type { Frozen } from "./frozen.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import {
  estimateSchema,
  roundCandidateShape,
  roundWinnerSchema,
  standingEstimateSchema,
} from "../rundir/decision_file.ts";
import { shaSchema } from "../rundir/run_record.ts";
import {
  calibrationShape,
  cancelledSchema,
  crashSchema,
  differenceSchema,
  failureSchema,
  improvementSchema,
  meansSchema,
  provenanceSchema,
  relativeSchema,
  samplesSchema,
  stateSchema,
  usageOutSchema,
  verdictSchema,
} from "./pieces.ts";

/**
 * `show RUN_DIR --json`: one object whatever the run's state, every key
 * present (null when it does not apply) but a repeated design's facts
 * (`seeds`, `n`, `outcome`, `benchmark`, `siblings`, `guards`: a decided
 * repeated design only) and `calibration` (a calibration run only).
 */

/** One measure of the look the run stands at. */
const measureRowSchema = lazy(() =>
  strict({
    name: z.string(),
    state: z.enum(["done", "pending", "running", "failed", "crashed", "not dispatched", "cancelled"]),
    value: z.nullable(z.number()),
    job_id: z.nullable(z.string()),
    reason: z.nullable(z.string()),
    why: z.nullable(z.string()),
    usage: z.nullable(usageOutSchema()),
    provenance: z.nullable(provenanceSchema()),
    samples: z.nullable(samplesSchema()),
    // earlier attempts that gave no value (sent again after an end that was nobody's code, requeued by the
    // scheduler, taken up again after a failure), oldest first; [] for none
    attempts: z.array(strict({
      job_id: z.string(),
      host: z.nullable(z.string()),
      requeued: z.boolean(),
      why: z.string(),
    })),
  })
);

/** A round's standing: decision.json's `round` (or an open round's so far), with `open` and `next`. */
const roundStandingSchema = lazy(() =>
  strict({
    open: z.boolean(),
    procedure: z.string(),
    seeds: z.array(wholeNumber(0)),
    n: wholeNumber(0),
    winner: z.nullable(roundWinnerSchema()),
    candidates: z.array(strict({
      measure: z.string(),
      label: z.string(),
      winner: z.boolean(),
      mean: z.nullable(z.number()),
      ...roundCandidateShape(),
    })),
    next: z.nullable(strict({
      stage: z.string(),
      first_pair: wholeNumber(1),
      last_pair: wholeNumber(1),
      arms: z.array(wholeNumber(0)),
    })),
  })
);

/** `show --json`. */
export const showSchema = lazy(() =>
  strict({
    run_dir: z.string(),
    base_sha: shaSchema(),
    candidate_sha: z.nullable(shaSchema()),
    // what the candidate tries (a round: its winner's): --label, else its commit's subject; "" when none is known
    label: z.string(),
    measures: z.array(measureRowSchema()),
    wake: z.nullable(strict({
      job_id: z.string(),
      dependency: z.nullable(z.string()),
      begin: z.nullable(z.string()),
      submitted_at: z.string(),
    })),
    kind: z.enum(["measure", "calibrate"]),
    state: stateSchema(),
    verdict: z.nullable(verdictSchema()),
    crash: z.nullable(crashSchema()),
    crashes: z.array(strict({ ...crashSchema().shape, at: z.string() })),
    disputes: z.array(z.string()),
    calibration: z.optional(z.nullable(strict(calibrationShape()))),
    seeds: z.optional(z.array(wholeNumber(0))),
    n: z.optional(wholeNumber(1)),
    outcome: z.optional(z.string()),
    benchmark: z.optional(estimateSchema()),
    siblings: z.optional(z.record(z.string(), standingEstimateSchema())),
    guards: z.optional(z.record(z.string(), standingEstimateSchema())),
    means: meansSchema(),
    improvement: improvementSchema(),
    difference: differenceSchema(),
    relative: relativeSchema(),
    round: z.nullable(roundStandingSchema()),
    scheduler_error: z.nullable(z.string()),
    waiting_for_room: z.nullable(strict({ limit: z.string(), waiting: wholeNumber(0), at: z.string() })),
    failure: z.nullable(failureSchema()),
    cancelled: z.nullable(cancelledSchema()),
    warnings: z.array(z.string()),
  })
);

/** `show --json`'s object, which `views/run_view_json.ts` builds. */
export type ShowJson = Frozen<z.input<ReturnType<typeof showSchema>>>;
