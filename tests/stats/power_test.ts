import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { siblingCall } from "../../src/stats/look_rule.ts";
import { pairedInterval } from "../../src/stats/paired.ts";
import {
  calibrate,
  detectableEffect,
  POWER_TABLE_PAIRS,
  suggestedDesign,
  suggestedMinEffect,
  suggestedTolerance,
} from "../../src/stats/power.ts";
import { finalLook, sequentialDesign } from "../../src/stats/sequential.ts";
import { seededRandom } from "../helpers/seeded_random.ts";

function near(actual: number, expected: number, rel: number): void {
  assert.ok(Math.abs(actual / expected - 1) <= rel, `expected ${expected}, got ${actual}`);
}

/** Two significant digits, rounded up: how a suggestion reads. */
function ceil2(x: number): number {
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((Math.ceil(x / unit - 1e-9) * unit).toPrecision(2));
}

/** A seeded standard normal stream (Box–Muller), so a simulation is the same on every run. */
function normals(seed: number): () => number {
  const uniform = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

// scipy.stats.nct solved with brentq: the δ (in sd) with P(lower bound at `level` > 0 | true mean δ) = power
const NCT_80_AT_95: [number, number][] = [
  [2, 11.549888435882336],
  [3, 3.264043549819917],
  [4, 2.127949410370004],
  [5, 1.681997282215744],
  [10, 0.9960022543069521],
  [20, 0.6604424098186562],
  [30, 0.5292362447757994],
];
/** The same at 90% power, 14 pairs, level 1 − 0.05·4/14: the last look of the design (5, 14) at 95%. */
const NCT_90_LAST_OF_5_14 = 1.1324935269249747;

describe("detectableEffect()", () => {
  for (const [n, d] of NCT_80_AT_95) {
    it(`matches the noncentral-t power for ${n} pairs: ${d.toFixed(4)} sd`, () =>
      near(detectableEffect(1, n, 0.95), d, 1e-6));
  }

  it("matches it at 90% power on the last look of a sequential design", () => {
    near(detectableEffect(1, 14, 1 - 0.05 * 4 / 14, 0.9), NCT_90_LAST_OF_5_14, 1e-6);
  });

  it("gives one pair z(0.8)·sd, today's rule, which has no interval to guard it", () => {
    near(detectableEffect(2, 1, 0.95), 2 * 0.8416212335729143, 1e-14);
  });

  it("scales with the spread and is 0 without one", () => {
    near(detectableEffect(3, 10, 0.95), 3 * 0.9960022543069519, 1e-6);
    assert.equal(detectableEffect(0, 10, 0.95), 0);
  });
});

describe("calibrate()", () => {
  // an A/A run's paired improvements: mean 0, sd √(80/9)
  const aa = [2, -2, 4, -4, 0, 2, -2, 4, -4, 0];
  const sd = Math.sqrt(80 / 9);

  it("reports the A/A spread and its interval around 0", () => {
    const c = calibrate(aa, 0.95);
    assert.equal(c.n, 10);
    assert.equal(c.mean, 0);
    near(c.sd, sd, 1e-14);
    near(c.upper, 2.26215716 * sd / Math.sqrt(10), 1e-8);
    assert.equal(c.biased, false);
  });

  it("tables fixed designs of 3 to 30 pairs, leaving out one pair, which has no interval", () => {
    const c = calibrate(aa, 0.95);
    assert.deepEqual(c.detectable.map((d) => d.pairs), [3, 5, 10, 20, 30]);
    assert.deepEqual([...POWER_TABLE_PAIRS], [3, 5, 10, 20, 30]);
    near(c.detectable[2]!.effect, 0.9960022543069519 * sd, 1e-6);
  });

  it("tables an effect that falls as the pairs grow: every row has the same guarantee", () => {
    for (const confidence of [0.8, 0.95, 0.99]) {
      const effects = calibrate(aa, confidence).detectable.map((d) => d.effect);
      effects.slice(1).forEach((e, i) => assert.ok(e < effects[i]!, `${confidence}: ${effects.join(", ")}`));
    }
  });

  it("suggests min_effect as the bias the A/A check finds with 80% power: sd × the noncentral-t factor at n", () => {
    assert.equal(calibrate(aa, 0.95).suggestion.minEffect, ceil2(sd * 0.9960022543069521)); // 3
    const four = [1, -1, 2, -2];
    const sd4 = Math.sqrt(10 / 3);
    assert.equal(calibrate(four, 0.95).suggestion.minEffect, ceil2(sd4 * 2.127949410370004)); // 3.9
    assert.equal(suggestedMinEffect(sd, 10, 0.95), 3);
    assert.equal(suggestedMinEffect(0, 10, 0.95), 0);
  });

  it("suggests the same keys for two A/A samples of equal spread whatever their means", () => {
    const shifts = [0, 0.25, -0.5, 1.5];
    const suggestions = shifts.map((k) => calibrate(aa.map((x) => x + k), 0.95).suggestion);
    for (const s of suggestions) assert.deepEqual(s, suggestions[0]);
  });

  it("suggests the contract's noise: the sd of the pairs the ESD test at 1% keeps, rounded up, and how many", () => {
    const clean = [0.3, -0.5, 0.8, -0.2, 0.1, -0.9, 0.6, 0.4, -0.3, 0.0, 0.2, -0.6];
    const sd = pairedInterval(clean, 0.95).sd!;
    assert.deepEqual(calibrate(clean, 0.95).suggestion.noise, { sd: ceil2(sd), pairs: 12 });
    // a stalled pair is not the benchmark's noise: the fence's scale leaves it out
    assert.deepEqual(calibrate([...clean, 9.5], 0.95).suggestion.noise, { sd: ceil2(sd), pairs: 12 });
    assert.equal(Object.hasOwn(calibrate([1, 1, 1], 0.95).suggestion, "noise"), false);
  });

  it("suggests the same keys for negated improvements (a mirrored A/A sample)", () => {
    const sib = { s: [0.5, -1, 0.25, 0, 1] };
    const sibMirror = { s: sib.s.map((x) => -x) };
    const aaOdd = [3, -1, 0.5, 2, -3.5]; // mean 0.2: a mirror moves the interval
    assert.deepEqual(
      calibrate(aaOdd.map((x) => -x), 0.95, sibMirror).suggestion,
      calibrate(aaOdd, 0.95, sib).suggestion,
    );
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
    const c = calibrate(aa, 0.95, {}, 2 * sd);
    assert.ok(c.suggestion.maxRepeats < 14, String(c.suggestion.maxRepeats));
    assert.equal(suggestedDesign(sd, 2 * sd, 0.95).maxRepeats, c.suggestion.maxRepeats);
  });

  it("flags an A/A interval that excludes 0: the two sides of a pair differ systematically", () => {
    assert.equal(calibrate(aa.map((x) => x + 5), 0.95).biased, true);
  });

  it("needs at least two A/A pairs, for the benchmark and for each sibling", () => {
    assert.throws(() => calibrate([1], 0.95), RangeError);
    assert.throws(() => calibrate(aa, 0.95, { s: [1] }), RangeError);
  });
});

describe("sibling tolerance", () => {
  const sib = [1, -1, 0.5, -0.5, 0, 1, -1, 0.5, -0.5, 0]; // sd √(5/9)
  const sibSd = Math.sqrt(5 / 9);
  const design = sequentialDesign(5, 14, 0.95);

  it("is the tolerance an unchanged sibling clears with 90% at the design's last look (noncentral t)", () => {
    const c = calibrate([2, -2, 4, -4, 0, 2, -2, 4, -4, 0], 0.95, { tsp: sib });
    assert.deepEqual(c.suggestion.siblings, { tsp: { tolerance: ceil2(sibSd * NCT_90_LAST_OF_5_14) } }); // 0.85
    near(c.siblings["tsp"]!.sd, sibSd, 1e-14);
    assert.equal(suggestedTolerance(sibSd, design), 0.85);
    assert.equal(suggestedTolerance(0, design), 0);
  });

  it("holds an unchanged sibling in 90% of simulated climbs at that tolerance (siblingCall at the last look)", () => {
    const last = finalLook(design);
    const z = normals(14);
    const climbs = 20_000;
    let held = 0;
    for (let i = 0; i < climbs; i++) {
      const improvements = Array.from({ length: last.n }, () => z() * sibSd);
      if (siblingCall(pairedInterval(improvements, last.level!), sibSd * NCT_90_LAST_OF_5_14) === "held") held++;
    }
    const rate = held / climbs; // binomial se 0.0021
    assert.ok(Math.abs(rate - 0.9) < 0.0065, String(rate));
  });

  it("is in the sibling's own units: ten times the noise, ten times the tolerance", () => {
    const aa = [3, -1, 0.5, 2, -4.5, 1, -2, 0, 1.5, -0.5];
    const small = calibrate(aa, 0.95, { s: sib }).suggestion.siblings["s"]!.tolerance;
    const large = calibrate(aa, 0.95, { s: sib.map((x) => 10 * x) }).suggestion.siblings["s"]!.tolerance;
    near(large, 10 * small, 0.02);
  });
});
