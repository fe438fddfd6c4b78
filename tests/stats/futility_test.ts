import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FUTILITY_POWER, isFutile, predictivePower } from "../../src/stats/futility.ts";
import { pairedInterval } from "../../src/stats/paired.ts";

function near(actual: number, expected: number, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

/** An interval with a chosen mean and sd (its own ends and level do not enter the predictive power). */
const at = (n: number, mean: number, sd: number) => ({ n, mean, sd, lower: NaN, upper: NaN, level: 0.95 });

describe("predictivePower()", () => {
  it("is T_{n−1}((mean − min_effect − h_N)·√(N·n) / (sd·√(N − n))), h_N the last look's half-width", () => {
    // n 4, mean 3, sd 2, N 12 at 95%, min_effect 1: h = t(0.975, 11)·2/√12; value from scipy.stats.t
    near(predictivePower(at(4, 3, 2), 12, 0.95, 1), 0.7812103127774573);
  });

  it("is high for a strong start and low for a flat one", () => {
    // the first looks of tests/verdict/decide_test.ts, at the default design's last-look level 1 − 0.05/3
    const level = 1 - 0.05 / 3;
    near(predictivePower(pairedInterval([3, 5, 1, 7], 0.9), 12, level, 1), 0.7715833418302573);
    near(predictivePower(pairedInterval([0, 1, -1, 0.5], 0.9), 12, level, 1), 0.010220491300595786);
  });

  it("is 1 or 0 when the spread is zero: nothing will move the mean", () => {
    assert.equal(predictivePower(at(4, 1.5, 0), 12, 0.95, 1), 1);
    assert.equal(predictivePower(at(4, 1, 0), 12, 0.95, 1), 0);
  });

  it("refuses one pair (no spread) and a look at or past the last", () => {
    assert.throws(() => predictivePower(pairedInterval([2], 0.95), 12, 0.95, 1), RangeError);
    assert.throws(() => predictivePower(at(12, 3, 2), 12, 0.95, 1), RangeError);
  });
});

describe("isFutile()", () => {
  it("stops below the default threshold of 20% and continues above it", () => {
    assert.equal(FUTILITY_POWER, 0.2);
    assert.equal(isFutile(at(4, 0.125, 0.85), 12, 0.95, 1), true); // 1.3%
    assert.equal(isFutile(at(4, 1.6, 2), 12, 0.95, 1), false); // 23.6%
    assert.equal(isFutile(at(4, 1.6, 2), 12, 0.95, 1, 0.25), true);
  });

  it("never stops with a threshold of 0", () => {
    assert.equal(isFutile(at(4, -5, 1), 12, 0.95, 1, 0), false);
  });
});

describe("predictivePower() of a screened interval", () => {
  it("counts only the pairs kept, with their own df: the prediction of the interval the verdict reads", () => {
    const kept = pairedInterval([3, 5, 1, 7], 0.9);
    const screened = { ...kept, n: 5, df: 3, setAside: [4] };
    const level = 1 - 0.05 / 3;
    // a 5-pair look that set one aside predicts as the 4 kept pairs do
    near(predictivePower(screened, 12, level, 1), predictivePower(kept, 12, level, 1), 1e-12);
    // with the last look's own df (N − 1 for a Student t at N pairs, the default)
    near(predictivePower(kept, 12, level, 1, 11), predictivePower(kept, 12, level, 1), 1e-15);
  });
});
