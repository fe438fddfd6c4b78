// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import type { Frozen } from "./frozen.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { shaSchema } from "../rundir/run_record.ts";
import { stateSchema, verdictSchema } from "./pieces.ts";

/**
 * `runs DIR --json`: `{"runs": [...]}`, oldest first, every key present
 * (null when unknown); report/runs_json.ts says what each means.
 */

const intervalShape = () => ({
  lower: z.nullable(z.number()),
  upper: z.nullable(z.number()),
  confidence: z.nullable(z.number()),
});

/**
 * `improvement` of a run or a round candidate: n pairs, the mean (positive = better) and its interval, and the
 * pairs (1-based) the estimate set aside with why, in the words every surface uses ([] and null when none).
 */
const improvementListing = lazy(() =>
  z.nullable(strict({
    n: wholeNumber(1),
    mean: z.number(),
    ...intervalShape(),
    set_aside: z.array(wholeNumber(1)),
    set_aside_why: z.nullable(z.string()),
  }))
);

/** `relative`: the ratio candidate / baseline and its interval. */
const relativeListing = lazy(() => z.nullable(strict({ mean: z.number(), ...intervalShape() })));

/** `crash` of a run or a round candidate. */
const crashListing = lazy(() =>
  z.nullable(strict({ measure: z.string(), job_id: z.nullable(z.string()), cause: z.string(), log_tail: z.string() }))
);

const candidateEntry = lazy(() =>
  strict({
    arm: wholeNumber(1),
    measure: z.string(),
    ref: z.string(),
    sha: shaSchema(),
    // what it tries: --label, else its commit's subject; "" when none is known
    label: z.string(),
    verdict: z.nullable(verdictSchema()),
    standing: z.enum(["in-play", "dropped", "decided"]),
    because: z.nullable(z.string()),
    winner: z.boolean(),
    pairs: wholeNumber(0),
    stage: z.nullable(z.enum(["confirmation", "screen"])),
    first_pair: z.nullable(wholeNumber(1)),
    last_pair: z.nullable(wholeNumber(1)),
    baseline: z.nullable(z.number()),
    candidate: z.nullable(z.number()),
    difference: z.nullable(z.number()),
    improvement: improvementListing(),
    crash: crashListing(),
    relative: relativeListing(),
  })
);

const runEntry = lazy(() =>
  strict({
    tag: z.string(),
    kind: z.enum(["measure", "calibrate"]),
    run_dir: z.string(),
    created_at: z.string(),
    benchmark: z.string(),
    metric: z.string(),
    // the contract's unit (`ms`, `bpb`); null when it gives none
    unit: z.nullable(z.string()),
    direction: z.enum(["maximize", "minimize"]),
    min_effect: z.union([z.number(), z.string()]),
    base_sha: shaSchema(),
    candidate_sha: z.nullable(shaSchema()),
    // what the candidate tries (a round: its winner's); "" when none is known
    label: z.string(),
    state: stateSchema(),
    verdict: z.nullable(verdictSchema()),
    baseline: z.nullable(z.number()),
    candidate: z.nullable(z.number()),
    difference: z.nullable(z.number()),
    improvement: improvementListing(),
    decided_at: z.nullable(z.string()),
    wall_seconds: z.nullable(z.number()),
    failure: z.nullable(z.string()),
    live: z.nullable(z.boolean()),
    disputes: z.array(z.string()),
    round: z.nullable(strict({
      open: z.boolean(),
      n: wholeNumber(0),
      winner: z.nullable(strict({ arm: wholeNumber(1), measure: z.string(), ref: z.string(), sha: shaSchema() })),
      candidates: z.array(candidateEntry()),
    })),
    calibration: z.nullable(strict({
      n: wholeNumber(2),
      mean: z.number(),
      lower: z.number(),
      upper: z.number(),
      confidence: z.number(),
      sd: z.number(),
      biased: z.boolean(),
      suggestion: strict({ min_effect: z.number(), repeats: wholeNumber(1), max_repeats: wholeNumber(1) }),
    })),
    crash: crashListing(),
    relative: relativeListing(),
  })
);

/** `runs --json`. */
export const runsSchema = lazy(() => strict({ runs: z.array(runEntry()) }));

/** The listing, which report/runs_json.ts builds. */
export type RunsJson = Frozen<z.input<ReturnType<typeof runsSchema>>>;
/** One run of it. */
export type RunEntryJson = Frozen<z.input<ReturnType<typeof runEntry>>>;
/** One round candidate of a run. */
export type CandidateEntryJson = Frozen<z.input<ReturnType<typeof candidateEntry>>>;
