import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchmarkCall, futilityVerdict, judgeLook, type LookFacts, siblingCall } from "../../src/stats/look_rule.ts";

describe("benchmarkCall()", () => {
  it("accepts only when the lower bound is strictly above min_effect", () => {
    assert.equal(benchmarkCall({ lower: 1.01, upper: 3 }, 1), "accept");
    assert.equal(benchmarkCall({ lower: 1, upper: 3 }, 1), "inconclusive");
  });

  it("rejects when the upper bound is at or below 0", () => {
    assert.equal(benchmarkCall({ lower: -3, upper: 0 }, 1), "reject");
    assert.equal(benchmarkCall({ lower: -3, upper: 0.01 }, 1), "inconclusive");
  });

  it("reduces on a point [Δ, Δ] to today's rule: Δ > min_effect accepts, Δ ≤ 0 rejects", () => {
    for (const [d, call] of [[2, "accept"], [0.5, "inconclusive"], [0, "reject"], [-1, "reject"]] as const) {
      assert.equal(benchmarkCall({ lower: d, upper: d }, 0.5), call);
    }
  });
});

describe("siblingCall()", () => {
  it("finds a regression when the upper bound is below −tolerance", () => {
    assert.equal(siblingCall({ lower: -3, upper: -0.6 }, 0.5), "regressed");
  });

  it("holds when the lower bound is at or above −tolerance", () => {
    assert.equal(siblingCall({ lower: -0.5, upper: 2 }, 0.5), "held");
  });

  it("is unsure when the interval straddles −tolerance", () => {
    assert.equal(siblingCall({ lower: -0.7, upper: -0.5 }, 0.5), "unsure");
  });

  it("reduces on a point to today's rule: held iff Δ ≥ −tolerance", () => {
    assert.equal(siblingCall({ lower: -0.5, upper: -0.5 }, 0.5), "held");
    assert.equal(siblingCall({ lower: -0.75, upper: -0.75 }, 0.5), "regressed");
  });
});

describe("judgeLook()", () => {
  const facts = (over: Partial<LookFacts>): LookFacts => ({
    firstPairOnly: false,
    batch: 4,
    benchmark: "inconclusive",
    mean: 0.5,
    siblings: [],
    futile: () => false,
    ...over,
  });

  it("only continues on a first pair, whatever the benchmark and the siblings say", () => {
    for (const benchmark of ["accept", "reject"] as const) {
      assert.deepEqual(judgeLook(facts({ firstPairOnly: true, benchmark, siblings: ["regressed"] })), {
        kind: "first-pair",
        verdict: "inconclusive",
        next: 4,
      });
    }
  });

  it("rejects on a regressed sibling even when the benchmark accepts", () => {
    assert.deepEqual(judgeLook(facts({ benchmark: "accept", siblings: ["held", "regressed"] })), {
      kind: "sibling-regressed",
      verdict: "reject",
      next: 0,
    });
  });

  it("accepts when the benchmark accepts and every sibling held", () => {
    assert.deepEqual(judgeLook(facts({ benchmark: "accept", siblings: ["held"] })), {
      kind: "accepted",
      verdict: "accept",
      next: 0,
    });
  });

  it("holds back an accept while a sibling is unsure: another batch, or inconclusive at the last look", () => {
    const unsure = facts({ benchmark: "accept", siblings: ["unsure"] });
    assert.deepEqual(judgeLook(unsure), { kind: "sibling-unsure", verdict: "inconclusive", next: 4 });
    assert.deepEqual(judgeLook({ ...unsure, batch: 0 }), { kind: "sibling-unsure", verdict: "inconclusive", next: 0 });
  });

  it("rejects when the benchmark rejects", () => {
    assert.deepEqual(judgeLook(facts({ benchmark: "reject" })), { kind: "no-improvement", verdict: "reject", next: 0 });
  });

  it("continues while undecided, stops for futility, and ends inconclusive at the last look", () => {
    assert.deepEqual(judgeLook(facts({})), { kind: "undecided", verdict: "inconclusive", next: 4 });
    assert.deepEqual(judgeLook(facts({ futile: () => true })), { kind: "futile", verdict: "inconclusive", next: 0 });
    assert.deepEqual(judgeLook(facts({ batch: 0 })), { kind: "undecided", verdict: "inconclusive", next: 0 });
  });

  it("reads a futility stop as the single-pair rule reads the estimate: reject at mean <= 0, else inconclusive", () => {
    const stop = (mean: number) => judgeLook(facts({ mean, futile: () => true }));
    assert.deepEqual(stop(-3), { kind: "futile", verdict: "reject", next: 0 });
    assert.deepEqual(stop(0), { kind: "futile", verdict: "reject", next: 0 });
    assert.deepEqual(stop(0.5), { kind: "futile", verdict: "inconclusive", next: 0 });
    // above min_effect the interval still did not clear it: a futility stop never accepts
    assert.deepEqual(stop(7), { kind: "futile", verdict: "inconclusive", next: 0 });
    assert.deepEqual([-1, 0, 1e-9, 3].map(futilityVerdict), ["reject", "reject", "inconclusive", "inconclusive"]);
  });

  it("asks about futility only when the benchmark is undecided and pairs remain", () => {
    let asked = 0;
    const futile = () => (asked++, true);
    judgeLook(facts({ batch: 0, futile }));
    judgeLook(facts({ benchmark: "accept", futile }));
    judgeLook(facts({ firstPairOnly: true, futile }));
    assert.equal(asked, 0);
  });
});
