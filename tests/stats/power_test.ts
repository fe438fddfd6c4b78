import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calibrate, detectableEffect } from "../../src/stats/power.ts";

function near(actual: number, expected: number, rel: number): void {
  assert.ok(Math.abs(actual / expected - 1) <= rel, `expected ${expected}, got ${actual}`);
}

describe("detectableEffect()", () => {
  // the excess over min_effect found with 80% power at 95%, in sd units: scipy.stats.nct solved with brentq
  const exact: [number, number][] = [[2, 11.549888435882336], [3, 3.264043549819914], [5, 1.6819972822157443], [
    10,
    0.9960022543069519,
  ], [20, 0.6604424098186562]];
  for (const [n, d] of exact) {
    it(`matches the noncentral-t power for ${n} pairs: ${d.toFixed(4)} sd`, () =>
      near(detectableEffect(1, n, 0.95), d, 1e-6));
  }

  it("gives one pair z(0.8)·sd, today's rule, which has no interval to guard it", () => {
    near(detectableEffect(2, 1, 0.95), 2 * 0.8416212335729143, 1e-14);
  });

  it("scales with the spread and is 0 without one", () => {
    near(detectableEffect(3, 10, 0.95), 3 * 0.9960022543069519, 1e-6);
    assert.equal(detectableEffect(0, 10, 0.95), 0);
  });
});

describe("calibrate()", () => {
  // an A/A run's paired differences: mean 0, sd √(80/9)
  const aa = [2, -2, 4, -4, 0, 2, -2, 4, -4, 0];

  it("reports the A/A spread and its interval around 0", () => {
    const c = calibrate(aa, 0.95);
    assert.equal(c.n, 10);
    assert.equal(c.mean, 0);
    near(c.sd, Math.sqrt(80 / 9), 1e-14);
    near(c.upper, 2.26215716 * Math.sqrt(80 / 9) / Math.sqrt(10), 1e-8);
    assert.equal(c.biased, false);
  });

  it("gives the detectable effect at 1, 3, 5, 10 and 20 pairs", () => {
    const c = calibrate(aa, 0.95);
    assert.deepEqual(c.detectable.map((d) => d.pairs), [1, 3, 5, 10, 20]);
    near(c.detectable[3]!.effect, 0.9960022543069519 * c.sd, 1e-6);
  });

  it("suggests the fewest pairs whose last look finds a one-sd target with 80% power, whatever the scale", () => {
    // at 95% and ρ = 1 the last look of (5, 14) finds 0.997 sd, (5, 13) only 1.081 sd
    for (const k of [1, 1000]) {
      const s = calibrate(aa.map((x) => x * k), 0.95).suggestion;
      assert.equal(s.repeats, 5);
      assert.equal(s.maxRepeats, 14);
    }
    assert.equal(detectableEffect(1, 14, 1 - 0.05 * 4 / 14) <= 1, true);
    assert.equal(detectableEffect(1, 13, 1 - 0.05 * 3 / 13) <= 1, false);
  });

  it("suggests fewer pairs for a larger target", () => {
    const c = calibrate(aa, 0.95, 2 * Math.sqrt(80 / 9));
    assert.ok(c.suggestion.maxRepeats < 14, String(c.suggestion.maxRepeats));
  });

  it("suggests min_effect at the A/A interval's upper bound, rounded up to two digits", () => {
    const c = calibrate(aa, 0.95);
    assert.equal(c.suggestion.minEffect, 2.2); // upper bound 2.1329…
  });

  it("flags an A/A interval that excludes 0: the two sides of a pair differ systematically", () => {
    assert.equal(calibrate(aa.map((x) => x + 5), 0.95).biased, true);
  });

  it("needs at least two A/A pairs", () => {
    assert.throws(() => calibrate([1], 0.95), RangeError);
  });
});
