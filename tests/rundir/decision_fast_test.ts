import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decisionSchema } from "../../src/rundir/decision_file.ts";
import { isPlainDecision } from "../../src/rundir/decision_fast.ts";
import { agrees, variants } from "../helpers/fast_path.ts";

/**
 * decision.json's shape checks beside its zod schema: on every decision
 * below and every variant of it with one thing changed, anywhere, what the
 * checks accept the schema accepts unchanged; and they accept the decisions
 * (so the fast path is the one taken).
 */

const A = "a".repeat(40), B = "b".repeat(40), C = "c".repeat(40);
const est = { n: 4, mean: 1, lower: 0.5, upper: 1.5, confidence: 0.95, method: "paired t" };
const usage = {
  job_id: "12",
  state: "COMPLETED",
  elapsed_s: 3,
  timelimit_s: 3600,
  max_rss_bytes: null,
  req_mem_bytes: 2e9,
  alloc_cpus: 1,
  total_cpu_s: null,
  cpu_efficiency: 0.5,
};
const crash = { measure: "candidate", job_id: null, kind: "exit", cause: "exit 1", message: "exit 1\n…" };
const SINGLE = {
  verdict: "accept",
  values: { baseline: 1, candidate: 2 },
  deltas: { candidate: 1 },
  reasons: ["better"],
  base_sha: A,
  candidate_sha: B,
  decided_at: "2026-12-02T06:04:18.222Z",
  direction: "maximize",
  min_effect: 0,
  baseline_source: "measured",
};
const DECISIONS: readonly Record<string, unknown>[] = [
  SINGLE,
  {
    ...SINGLE,
    verdict: "crashed",
    crash,
    min_effect: 0.02,
    min_effect_scale: "relative",
    relative: { benchmark: { ...est, set_aside: [2] }, siblings: { lat: null }, guards: { size: est } },
    baseline_source: "cached",
    run_identity: C,
    seeds: [1, 2, 3, 4],
    n: 4,
    outcome: "accepted",
    benchmark: est,
    siblings: { lat: { ...est, standing: "held" } },
    guards: { size: { ...est, set_aside: [1], standing: "unsure" } },
    usage: { baseline: usage, candidate: { ...usage, job_id: "13" } },
    samples: { baseline: { n: 3, min: 1, median: 2, max: 3 } },
    provenance: {
      baseline: {
        host: "h",
        started_at: "s",
        ended_at: "e",
        job_id: "12",
        node_list: "n1",
        cpu_model: "cpu",
        cpus: "0-3",
        gpus: ["0"],
      },
    },
  },
  {
    ...SINGLE,
    verdict: "inconclusive",
    round: {
      procedure: "screen then confirm",
      seeds: [1, 2],
      n: 2,
      winner: { arm: 1, ref: "main", sha: B, first_pair: 1, last_pair: 2, estimate: est, relative: null },
      candidates: [
        {
          arm: 1,
          ref: "main",
          sha: B,
          verdict: "accept",
          standing: "decided",
          because: null,
          pairs: 2,
          screen: est,
          estimate: null,
          relative: est,
          siblings: {},
          guards: { size: { ...est, standing: "regressed" } },
          reason: "r",
          crash,
        },
      ],
    },
  },
];

describe("isPlainDecision", () => {
  it("accepts the decisions, unchanged by the schema", () => {
    for (const d of DECISIONS) assert.ok(agrees(isPlainDecision, decisionSchema(), d), JSON.stringify(d));
  });

  it("accepts nothing the schema refuses, with one thing changed anywhere", () => {
    let tried = 0;
    for (const d of DECISIONS) {
      for (const v of variants(d)) {
        agrees(isPlainDecision, decisionSchema(), v);
        tried++;
      }
    }
    assert.ok(tried > 1000, `only ${tried} variants`);
  });
});
