import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { screenCandidates } from "../../src/stats/round_screen.ts";

const arm = (a: number, improvements: number[], regressedSiblings: string[] = []) => ({
  arm: a,
  improvements,
  regressedSiblings,
});

describe("screenCandidates()", () => {
  // means 4, 2, −1; every deviation ±1, so the pooled sd is √(6/3) = √2 and se = √2/√2 = 1
  const three = [arm(1, [3, 5]), arm(2, [1, 3]), arm(3, [-2, 0])];

  it("pools the spread over the candidates and drops the hopeless and those out of reach (worked by hand)", () => {
    const s = screenCandidates(three, 1, false, { reach: 1, hope: 2 });
    assert.equal(s.df, 3);
    assert.ok(Math.abs(s.sd! - Math.SQRT2) < 1e-12);
    assert.ok(Math.abs(s.se! - 1) < 1e-12);
    assert.equal(s.leader, 1);
    // candidate 3: −1 ≤ 1 − 2·1, hopeless; candidate 2: 4 − 2 = 2 > 1·1, behind
    assert.deepEqual(s.calls.map((c) => [c.arm, c.mean, c.dropped]), [[1, 4, null], [2, 2, "behind"], [
      3,
      -1,
      "hopeless",
    ]]);
  });

  it("keeps a candidate within reach, and drops it at the end of the screen as not the leader", () => {
    const rules = { reach: 2.5, hope: 2 };
    assert.equal(screenCandidates(three, 1, false, rules).calls[1]!.dropped, null);
    assert.equal(screenCandidates(three, 1, true, rules).calls[1]!.dropped, "not-leader");
  });

  it("drops a candidate whose sibling fell beyond tolerance before ranking, so it cannot lead", () => {
    const s = screenCandidates([arm(1, [3, 5], ["mem"]), arm(2, [1, 3])], 1, true, { reach: 1, hope: 2 });
    assert.equal(s.leader, 2);
    assert.deepEqual(s.calls.map((c) => c.dropped), ["sibling", null]);
  });

  it("without a spread (one pair) skips the hope and reach rules and ranks alone", () => {
    const s = screenCandidates([arm(1, [-5]), arm(2, [7]), arm(3, [7])], 1, false, { reach: 1, hope: 2 });
    assert.equal(s.sd, null);
    assert.equal(s.leader, 2, "a tie goes to the lower arm");
    assert.deepEqual(s.calls.map((c) => c.dropped), [null, null, null]);
    assert.deepEqual(screenCandidates([arm(1, [-5]), arm(2, [7])], 1, true).calls.map((c) => c.dropped), [
      "not-leader",
      null,
    ]);
  });

  it("has no leader when every candidate is dropped", () => {
    const s = screenCandidates([arm(1, [-3, -5]), arm(2, [-4, -6])], 1, false, { reach: 1, hope: 2 });
    assert.equal(s.leader, null);
    assert.deepEqual(s.calls.map((c) => c.dropped), ["hopeless", "hopeless"]);
  });

  it("refuses candidates screened on different pairs", () => {
    assert.throws(() => screenCandidates([arm(1, [1, 2]), arm(2, [1])], 1, false), RangeError);
    assert.throws(() => screenCandidates([], 1, false), RangeError);
  });
});
