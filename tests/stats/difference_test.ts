import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { difference, differenceOfImprovement, differenceRange } from "../../src/stats/difference.ts";
import { improvementOfDifference } from "../../src/stats/improvement.ts";

describe("difference", () => {
  it("is candidate − baseline, the raw sign whatever the direction", () => {
    assert.equal(difference(10, 12), 2);
    assert.equal(difference(12, 10), -2);
  });

  it("of an improvement: the same when maximizing, negated when minimizing; the inverse of improvementOfDifference", () => {
    assert.equal(differenceOfImprovement("maximize", 3), 3);
    assert.equal(differenceOfImprovement("minimize", 3), -3);
    for (const d of ["maximize", "minimize"] as const) {
      for (const x of [-2.5, 0.1, 7]) assert.equal(improvementOfDifference(d, differenceOfImprovement(d, x)), x);
    }
  });

  it("of an improvement interval: the ends swap when minimizing, so lower ≤ upper still", () => {
    assert.deepEqual(differenceRange("maximize", 1, 2), [1, 2]);
    assert.deepEqual(differenceRange("minimize", 1, 2), [-2, -1]);
  });
});
