import {
  arrayOf,
  atLeast,
  type Check,
  isoTimestamp,
  matches,
  nullable,
  num,
  object,
  oneOf,
  optional,
  recordOf,
  sha,
  str,
  whole,
} from "../schema/check.ts";

/**
 * `decision.json`'s schema (decision_file.ts) as shape checks: a decision
 * they accept is its own schema output (the schema has no defaults), so
 * `show` and `resume` of a decided run read it without building the schema,
 * which was most of what reading it cost. What they refuse goes to the
 * schema. tests/rundir/decision_fast_test.ts holds the two side by side; a
 * change to the schema is a change here.
 */

const ratio = {
  n: whole(1),
  mean: num,
  lower: num,
  upper: num,
  confidence: num,
  method: str,
  set_aside: optional(arrayOf(whole(1))),
};
const estimate = object(ratio);
const standingEstimate = object({ ...ratio, standing: oneOf("held", "unsure", "regressed") });
const relative = object({
  benchmark: nullable(estimate),
  siblings: optional(recordOf(nullable(estimate))),
  guards: optional(recordOf(nullable(estimate))),
});
const crash = object({ measure: str, job_id: nullable(str), kind: str, cause: str, message: str });
const figure = nullable(atLeast(0));
const usage = object({
  job_id: str,
  state: str,
  elapsed_s: figure,
  timelimit_s: figure,
  max_rss_bytes: figure,
  req_mem_bytes: figure,
  alloc_cpus: figure,
  total_cpu_s: figure,
  cpu_efficiency: figure,
});
const verdict = oneOf("accept", "reject", "inconclusive", "crashed");
const round = object({
  procedure: str,
  seeds: arrayOf(whole(0)),
  n: whole(1),
  winner: nullable(object({
    arm: whole(1),
    ref: str,
    sha,
    first_pair: whole(1),
    last_pair: whole(1),
    estimate,
    relative: optional(nullable(estimate)),
  })),
  candidates: arrayOf(object({
    arm: whole(1),
    ref: str,
    sha,
    verdict,
    standing: oneOf("in-play", "dropped", "decided"),
    because: nullable(str),
    pairs: whole(0),
    screen: nullable(estimate),
    estimate: nullable(estimate),
    relative: optional(nullable(estimate)),
    siblings: recordOf(standingEstimate),
    guards: optional(recordOf(standingEstimate)),
    reason: str,
    crash: optional(crash),
  })),
});

/** The whole file. */
export const isPlainDecision: Check = object({
  verdict,
  values: recordOf(num),
  deltas: recordOf(num),
  reasons: arrayOf(str),
  crash: optional(crash),
  base_sha: sha,
  candidate_sha: nullable(sha),
  decided_at: isoTimestamp,
  direction: oneOf("maximize", "minimize"),
  min_effect: atLeast(0),
  min_effect_scale: optional(oneOf("relative")),
  relative: optional(relative),
  baseline_source: oneOf("cached", "measured"),
  run_identity: optional(matches(/^[0-9a-f]{40}$/)),
  seeds: optional(arrayOf(whole(0))),
  n: optional(whole(1)),
  outcome: optional(str),
  benchmark: optional(estimate),
  siblings: optional(recordOf(standingEstimate)),
  guards: optional(recordOf(standingEstimate)),
  usage: optional(recordOf(usage)),
  samples: optional(recordOf(object({ n: whole(1), min: num, median: num, max: num }))),
  provenance: optional(recordOf(object({
    host: str,
    started_at: str,
    ended_at: str,
    job_id: str,
    node_list: str,
    cpu_model: str,
    cpus: str,
    gpus: arrayOf(str),
  }))),
  round: optional(round),
});
