import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { equivalentLevel, simultaneousLook } from "../../src/stats/round_simultaneous.ts";
import { tQuantile } from "../../src/stats/student_t.ts";

function near(actual: number, expected: number, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

describe("simultaneousLook() with Holm–Bonferroni", () => {
  // three candidates on 5 pairs, min_effect 1, the look's α 0.05 (one-sided 0.025 over the family of 3)
  const a = { arm: 1, improvements: [3, 5, 4, 6, 2] }; // mean 4, sd √2.5, se 0.7071, T 4.243
  const b = { arm: 2, improvements: [1.8, 2.8, 2.3, 3.3, 1.3] }; // mean 2.3, sd 0.7906, se 0.3536, T 3.677
  const c = { arm: 3, improvements: [-1, 1, 0, 2, -2] }; // mean 0, T −1.414
  const calls = simultaneousLook("bonferroni", [a, b, c], 3, 0.05, 1);

  it("gives every candidate the interval mean ± t(1 − 0.025/3, 4)·se", () => {
    const t3 = tQuantile(1 - 0.025 / 3, 4);
    near(calls[0]!.interval.lower, 4 - t3 * Math.sqrt(2.5 / 5));
    near(calls[1]!.interval.upper, 2.3 + t3 * Math.sqrt(0.625 / 5));
    near(calls[0]!.interval.level, 1 - 0.05 / 3, 1e-9);
    near(equivalentLevel(t3, 4), 1 - 0.05 / 3, 1e-9);
  });

  it("accepts step-down: the largest T against K = 3, the next against 2, and stops at the first that fails", () => {
    const [c3, c2, c1] = [3, 2, 1].map((k) => tQuantile(1 - 0.025 / k, 4));
    // a: T 4.243 > c(3) 3.961; b: T 3.677 > c(2) 3.495, though below c(3), so single-step Bonferroni would not
    // accept it; c: T −1.414 < c(1)
    assert.ok(3 / Math.sqrt(0.5) > c3! && 1.3 / Math.sqrt(0.125) > c2! && 1.3 / Math.sqrt(0.125) < c3!);
    assert.ok(calls[1]!.interval.lower < 1 && -1.414 < c1!);
    assert.deepEqual(calls.map((x) => x.clears), [true, true, false]);
    // at the look's α 0.01 the first step already fails (t(1 − 0.005/3, 4) > 4.243), and Holm stops there
    assert.ok(tQuantile(1 - 0.005 / 3, 4) > 3 / Math.sqrt(0.5));
    assert.deepEqual(simultaneousLook("bonferroni", [a, b, c], 3, 0.01, 1).map((x) => x.clears), [false, false, false]);
  });

  it("marks a candidate clearly behind the leader (its paired difference's lower bound above 0) as dominated", () => {
    // a − c: 4, 4, 4, 4, 4 (no spread: lower bound 4); a − b: mean 1.7, se 0.3536, lower 1.7 − 3.961·0.3536 = 0.30
    assert.deepEqual(calls.map((x) => x.dominated), [false, true, true]);
    const wide = simultaneousLook("bonferroni", [a, b, c], 3, 0.01, 1);
    assert.deepEqual(wide.map((x) => x.dominated), [false, false, true], "at α 0.01, b is no longer clearly behind");
  });

  it("refuses candidates measured on different pairs", () => {
    assert.throws(() => simultaneousLook("bonferroni", [a, { arm: 2, improvements: [1] }], 2, 0.05, 1), RangeError);
  });
});

describe("simultaneousLook() with step-down Dunnett", () => {
  it("uses narrower intervals than Bonferroni for the same family", () => {
    const xs = [{ arm: 1, improvements: [3, 5, 4, 6, 2, 4, 5, 3] }, { arm: 2, improvements: [1, 0, 2, 1, 1, 0, 2, 1] }];
    const bon = simultaneousLook("bonferroni", xs, 4, 0.05, 1);
    const dun = simultaneousLook("dunnett", xs, 4, 0.05, 1);
    assert.ok(dun[0]!.interval.lower > bon[0]!.interval.lower);
    assert.ok(dun[0]!.interval.level < bon[0]!.interval.level);
  });
});
