import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { armMean, sideMeans } from "../../src/evaluation/side_means.ts";

const VALUES = {
  baseline: 10,
  "baseline#2": 12,
  "baseline#3": 14,
  candidate: 9,
  "candidate#2": 11,
  "candidate-2": 5,
  "sib-lat-base": 100,
  "sib-lat-cand": 200,
  "guard-size-base": 1000,
};

describe("armMean()", () => {
  it("averages every benchmark value of the arm, over all its pairs, siblings and guards left out", () => {
    assert.equal(armMean(VALUES, 0), 12, "the baseline's three pairs, not pair 1's value");
    assert.equal(armMean(VALUES, 1), 10, "a candidate that measured two pairs (a crash on its third)");
    assert.equal(armMean(VALUES, 2), 5);
  });

  it("is null for an arm that measured nothing", () => {
    assert.equal(armMean(VALUES, 3), null);
    assert.equal(armMean({}, 0), null);
  });
});

describe("sideMeans()", () => {
  it("gives the baseline's and the named candidate's; no candidate (a round without a winner) is null", () => {
    assert.deepEqual(sideMeans(VALUES, 1), { baseline: 12, candidate: 10 });
    assert.deepEqual(sideMeans(VALUES, null), { baseline: 12, candidate: null });
  });
});
