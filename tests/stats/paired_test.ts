import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { improvement } from "../../src/stats/improvement.ts";
import { pairedInterval } from "../../src/stats/paired.ts";

function near(actual: number, expected: number, tol = 1e-8): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

describe("improvement()", () => {
  it("is candidate − baseline when higher is better and baseline − candidate when lower is better", () => {
    assert.equal(improvement("maximize", 10, 12), 2);
    assert.equal(improvement("minimize", 10, 12), -2);
    assert.equal(improvement("minimize", 10, 7), 3);
  });
});

describe("pairedInterval()", () => {
  it("gives one pair the point interval [Δ, Δ] and no spread", () => {
    assert.deepEqual(pairedInterval([1.5], 0.95), { n: 1, mean: 1.5, sd: null, lower: 1.5, upper: 1.5, level: 0.95 });
  });

  it("gives two pairs mean ± t(0.975, 1)·sd/√2: [1, 3] → 2 ± 12.7062047", () => {
    // mean 2, sd √2, half-width 12.7062047·√2/√2
    const i = pairedInterval([1, 3], 0.95);
    assert.equal(i.n, 2);
    assert.equal(i.mean, 2);
    near(i.sd!, Math.SQRT2, 1e-15);
    near(i.lower, 2 - 12.7062047, 1e-7);
    near(i.upper, 2 + 12.7062047, 1e-7);
  });

  it("gives three pairs mean ± t(0.975, 2)·sd/√3: [1, 2, 3] → 2 ± 2.48413771", () => {
    // sd 1, half-width 4.30265273/√3 = 2.48413771
    const i = pairedInterval([1, 2, 3], 0.95);
    near(i.lower, 2 - 2.48413771, 1e-8);
    near(i.upper, 2 + 2.48413771, 1e-8);
  });

  it("uses the level it is given: 99% over 6 pairs is mean ± t(0.995, 5)·sd/√6", () => {
    const xs = [0, 2, 0, 2, 0, 2]; // mean 1, sd √(6/5)
    const i = pairedInterval(xs, 0.99);
    near(i.upper - i.mean, 4.03214298 * Math.sqrt(6 / 5) / Math.sqrt(6), 1e-8);
  });

  it("gives equal improvements the exact point [x, x], even for 0.1 three times", () => {
    assert.deepEqual(pairedInterval([0.1, 0.1, 0.1], 0.95), {
      n: 3,
      mean: 0.1,
      sd: 0,
      lower: 0.1,
      upper: 0.1,
      level: 0.95,
    });
    assert.deepEqual(pairedInterval([-2, -2], 0.95), { n: 2, mean: -2, sd: 0, lower: -2, upper: -2, level: 0.95 });
  });

  it("is unchanged by a shift and scales with the values", () => {
    const a = pairedInterval([1, 4, 2, 7], 0.9);
    const b = pairedInterval([1001, 1004, 1002, 1007], 0.9);
    const c = pairedInterval([1000, 4000, 2000, 7000], 0.9);
    near(b.lower - 1000, a.lower, 1e-9);
    near(c.upper / 1000, a.upper, 1e-12);
  });

  it("refuses no values, non-finite values and a level outside (0, 1)", () => {
    assert.throws(() => pairedInterval([], 0.95), RangeError);
    assert.throws(() => pairedInterval([1, NaN], 0.95), /finite/);
    assert.throws(() => pairedInterval([1, 2], 1), /level/);
  });
});
