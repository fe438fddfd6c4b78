import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { conditionalPower, FUTILITY_POWER, isFutile } from "../src/stats/futility.ts";
import { pairedInterval } from "../src/stats/paired.ts";

function near(actual: number, expected: number, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

/** An interval with a chosen mean and sd (the level does not enter conditional power). */
const at = (n: number, mean: number, sd: number) => ({ n, mean, sd, lower: NaN, upper: NaN, level: 0.95 });

describe("conditionalPower()", () => {
  it("is Φ(N·(mean − min_effect − h_N) / (sd·√(N − n))) under the current trend", () => {
    // n 4, mean 3, sd 2, N 12 at 95%, min_effect 1: h = t(0.975, 11)·2/√12; value from scipy
    near(conditionalPower(at(4, 3, 2), 12, 0.95, 1), 0.9390678225969193);
  });

  it("is near 1 for a strong trend and near 0 for a flat one", () => {
    // the two first looks of tests/run_decide_test.ts, at the default design's last-look level 1 − 0.05/3
    const level = 1 - 0.05 / 3;
    near(conditionalPower(pairedInterval([3, 5, 1, 7], 0.9), 12, level, 1), 0.9299852532534248);
    near(conditionalPower(pairedInterval([0, 1, -1, 0.5], 0.9), 12, level, 1), 3.065215461001576e-15, 1e-17);
  });

  it("is 1 or 0 when the spread is zero: nothing will move the mean", () => {
    assert.equal(conditionalPower(at(4, 1.5, 0), 12, 0.95, 1), 1);
    assert.equal(conditionalPower(at(4, 1, 0), 12, 0.95, 1), 0);
  });

  it("refuses one pair (no spread) and a look at or past the last", () => {
    assert.throws(() => conditionalPower(pairedInterval([2], 0.95), 12, 0.95, 1), RangeError);
    assert.throws(() => conditionalPower(at(12, 3, 2), 12, 0.95, 1), RangeError);
  });
});

describe("isFutile()", () => {
  it("stops below the default threshold of 10% and continues above it", () => {
    assert.equal(FUTILITY_POWER, 0.1);
    assert.equal(isFutile(at(4, 0.125, 0.85), 12, 0.95, 1), true);
    assert.equal(isFutile(at(4, 3, 2), 12, 0.95, 1), false);
  });

  it("never stops with a threshold of 0", () => {
    assert.equal(isFutile(at(4, -5, 1), 12, 0.95, 1, 0), false);
  });
});
