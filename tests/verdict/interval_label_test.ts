import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { adjustmentWords, intervalLabel, spendingLooks } from "../../src/verdict/interval_label.ts";
import { sequentialDesign } from "../../src/stats/sequential.ts";

describe("intervalLabel()", () => {
  it("labels a look's level with the level asked for and the looks it was adjusted for", () => {
    assert.equal(intervalLabel(1 - 0.05 / 3, 0.95, 3), "98.33% interval (the 95% asked for, adjusted for 3 looks)");
    assert.equal(intervalLabel(0.975, 0.95, 2, "CI"), "97.5% CI (the 95% asked for, adjusted for 2 looks)");
  });

  it("says no more for a single look at the level asked for", () => {
    assert.equal(intervalLabel(0.95, 0.95, 1), "95% interval");
    assert.equal(adjustmentWords(0.95, 0.95, 3), null);
  });
});

describe("spendingLooks()", () => {
  it("counts the looks that spend alpha: not a look at one pair", () => {
    assert.equal(spendingLooks(sequentialDesign(4, 12, 0.95)), 3);
    assert.equal(spendingLooks(sequentialDesign(1, 3, 0.95)), 2);
    assert.equal(spendingLooks(sequentialDesign(5, 5, 0.95)), 1);
  });
});
