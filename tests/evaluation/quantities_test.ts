import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchmarkQuantities, quantitiesJson } from "../../src/evaluation/quantities.ts";
import type { DecisionRecord } from "../../src/rundir/decision_file.ts";
import type { Estimate } from "../../src/verdict/decide.ts";

/** The fields benchmarkQuantities reads; the rest of a decision does not change its answer. */
function decision(over: Record<string, unknown>): DecisionRecord {
  return { verdict: "accept", direction: "maximize", deltas: {}, paired: null, ...over } as unknown as DecisionRecord;
}

const ESTIMATE: Estimate = {
  n: 6,
  mean: 2,
  lower: 0.5,
  upper: 3.5,
  confidence: 0.95,
  method: "Student t",
  setAside: [5, 2],
  relative: { n: 6, mean: 1.02, lower: 1.01, upper: 1.03, confidence: 0.95, method: "Student t", setAside: [] },
};

describe("benchmarkQuantities()", () => {
  it("a repeated design: the improvement as estimated, the difference the same when maximizing", () => {
    const q = benchmarkQuantities(decision({ paired: { benchmark: ESTIMATE } }))!;
    assert.deepEqual(q.improvement, {
      n: 6,
      mean: 2,
      lower: 0.5,
      upper: 3.5,
      confidence: 0.95,
      method: "Student t",
      setAside: [2, 5],
    });
    assert.deepEqual(q.difference, { n: 6, mean: 2, lower: 0.5, upper: 3.5, confidence: 0.95 });
    assert.deepEqual(q.relative, { n: 6, mean: 1.02, lower: 1.01, upper: 1.03, confidence: 0.95, method: "Student t" });
  });

  it("minimizing: the difference is the improvement negated, its interval's ends swapped", () => {
    const q = benchmarkQuantities(
      decision({ direction: "minimize", paired: { benchmark: ESTIMATE } }),
    )!;
    assert.equal(q.improvement.mean, 2);
    assert.deepEqual(q.difference, { n: 6, mean: -2, lower: -3.5, upper: -0.5, confidence: 0.95 });
  });

  it("a single pair: the difference through the direction, no interval, the single-pair method", () => {
    const q = benchmarkQuantities(decision({ direction: "minimize", deltas: { candidate: -4 } }))!;
    assert.deepEqual(q.improvement, {
      n: 1,
      mean: 4,
      lower: null,
      upper: null,
      confidence: null,
      method: "single pair, no interval",
      setAside: [],
    });
    assert.deepEqual(q.difference, { n: 1, mean: -4, lower: null, upper: null, confidence: null });
    assert.equal(q.relative, null);
  });

  it("a crash, a decision without a benchmark pair and a round without a winner have none", () => {
    assert.equal(benchmarkQuantities(decision({ verdict: "crashed", deltas: { candidate: 1 } })), null);
    assert.equal(benchmarkQuantities(decision({})), null);
    assert.equal(
      benchmarkQuantities(decision({ round: { winner: null } })),
      null,
    );
  });

  it("a round's are its winner's, its set-aside pairs renumbered in the round's pairs", () => {
    const round = { winner: { arm: 2, estimate: ESTIMATE, firstPair: 4, lastPair: 9 } };
    const q = benchmarkQuantities(decision({ round: round }))!;
    assert.deepEqual(q.improvement.setAside, [5, 8]);
    assert.equal(q.improvement.mean, 2);
    assert.equal(q.relative?.mean, 1.02);
  });

  it("a relative estimate of one pair keeps its ratio and drops its interval", () => {
    const relative = { n: 1, mean: 0.9, lower: 0.9, upper: 0.9, confidence: 0.95, method: "single pair", setAside: [] };
    const q = benchmarkQuantities(
      decision({ paired: { benchmark: { ...ESTIMATE, relative } } }),
    )!;
    assert.deepEqual(q.relative, {
      n: 1,
      mean: 0.9,
      lower: null,
      upper: null,
      confidence: null,
      method: "single pair",
    });
  });
});

describe("quantitiesJson()", () => {
  it("snake_case keys, every one present; all null without quantities", () => {
    const q = benchmarkQuantities(decision({ paired: { benchmark: ESTIMATE } }));
    const json = quantitiesJson(q) as { improvement: Record<string, unknown>; difference: unknown };
    assert.deepEqual(json.improvement.set_aside, [2, 5]);
    assert.equal("setAside" in json.improvement, false);
    assert.deepEqual(json.difference, { n: 6, mean: 2, lower: 0.5, upper: 3.5, confidence: 0.95 });
    assert.deepEqual(quantitiesJson(null), { improvement: null, difference: null, relative: null });
  });
});
