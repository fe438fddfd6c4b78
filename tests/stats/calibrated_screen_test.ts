import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CALIBRATED_WORDS,
  calibratedNoise,
  calibratedT,
  FENCE_ALPHA,
  fencedPairs,
  fenceWidth,
  GROUP_ALPHA,
  noiseClusters,
} from "../../src/stats/calibrated_screen.ts";
import { predictivePower } from "../../src/stats/futility.ts";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import { esdPairs } from "../../src/stats/screened_t.ts";
import { REPEATED_METHOD } from "../../src/stats/repeated_method.ts";
import { seededRandom } from "../helpers/seeded_random.ts";

function near(actual: number, expected: number, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

const NOISE = { sd: 0.5, pairs: 20 };

describe("fenceWidth()", () => {
  it("is t(1 − ε/(2n), pairs − 1)·sd·√(1 + π/(2n))", () => {
    assert.equal(FENCE_ALPHA, 0.01);
    // scipy.stats.t.ppf(1 - 0.01 / 18, 19) * 0.5 * sqrt(1 + pi / 18)
    near(fenceWidth(NOISE, 9), 2.079335323075803, 1e-9);
    near(fenceWidth({ sd: 2, pairs: 10 }, 6), 9.934157211735808, 1e-8);
  });
});

describe("fencedPairs()", () => {
  it("sets aside the pairs beyond the fence around the median, lowest first", () => {
    // median 1.5, fence ±2.08: 4.6 and -1.2 lie beyond it (a stalled baseline and a stalled candidate)
    const xs = [1.5, 1.2, 4.6, 1.9, 1.4, -1.2, 1.6, 1.3, 1.8];
    assert.deepEqual(fencedPairs(xs, NOISE), [5, 2]);
  });

  it("finds the pair 8 per-run sd out that the look's own spread cannot (the ESD test sets nothing aside)", () => {
    // per-run sd 0.5 (a pair's 0.71), effect 1.5, one candidate stalled by 8 per-run sd: 1.5 − 4 = −2.5
    const xs = [0.7, 2.4, 1.6, 0.6, -2.5, 2.2, 1.0, 2.3, 1.3];
    assert.deepEqual(esdPairs(xs), []);
    assert.deepEqual(fencedPairs(xs, { sd: 0.71, pairs: 20 }), [4]);
  });

  it("sets nothing aside below 6 pairs, nor when more than ⌊(n − 1)/2⌋ lie beyond the fence", () => {
    assert.deepEqual(fencedPairs([1, 1.1, 9, 1.2, 0.9], NOISE), []);
    // three of six far on each side of the median: the median itself is in doubt
    assert.deepEqual(fencedPairs([0, 0.1, -0.1, 9, 9.1, 8.9], NOISE), []);
    assert.deepEqual(fencedPairs([0, 0.1, -0.1, 0.2, 9.1, 8.9], NOISE), [5, 4]);
  });

  it("sets a clean normal pair aside in about ε of the looks", () => {
    const u = seededRandom(31);
    const normal = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
    let fired = 0;
    const looks = 20000;
    for (let i = 0; i < looks; i++) {
      const xs = Array.from({ length: 9 }, () => 0.5 * normal());
      if (fencedPairs(xs, { sd: 0.5, pairs: 1000 }).length > 0) fired++;
    }
    // ε 1% over the look, a little less (the bound is Bonferroni's): 0.3–1.2% allows 4 standard errors
    assert.ok(fired / looks > 0.003 && fired / looks < 0.012, `fired in ${fired} of ${looks}`);
  });
});

describe("noiseClusters()", () => {
  it("groups the pairs within a fence of the middle pair, as an interval at the calibrated scale", () => {
    // three pairs, one stalled far below the other two: the middle pair's group leaves it out
    const xs = [1.4, 1.7, -6];
    const groups = noiseClusters(xs, NOISE, 0.98);
    assert.equal(groups.length, 1);
    const [clean] = groups;
    assert.deepEqual(clean!.setAside, [2]);
    near(clean!.mean, 1.55);
    assert.equal(clean!.sd, 0.5);
    assert.equal(clean!.df, 19);
    assert.equal(clean!.n, 3);
    assert.equal(GROUP_ALPHA, FENCE_ALPHA / 4);
    // around every pair, the stalled pair's own group too
    assert.deepEqual(noiseClusters(xs, NOISE, 0.98, GROUP_ALPHA, "every").map((g) => g.setAside), [[2], [0, 1]]);
  });

  it("does not let a stalled pair's own group keep a look going: one baseline stall among three", () => {
    // no effect: two pairs near 0 and one stalled baseline far above; the middle pair's group is the clean two
    const [group] = noiseClusters([0.1, -0.2, 6], NOISE, 0.98);
    assert.deepEqual(group!.setAside, [2]);
    assert.ok(Math.abs(group!.mean) < 0.1);
  });

  it("finds no group in a look whose pairs all lie within a fence of each other", () => {
    assert.deepEqual(noiseClusters([1.4, 1.7, 1.1, 1.9], NOISE, 0.98), []);
  });

  it("gives the futility rule a prediction from one pair at the calibration's scale", () => {
    // k = 1 pair, mean 2, sd 1 over 20 A/A pairs, N 9, last level 1 − 0.05/3, min_effect 0: scipy.stats.t
    const one = { n: 3, mean: 2, sd: 1, lower: 0, upper: 4, level: 0.98, df: 19, setAside: [1, 2] };
    near(predictivePower(one, 9, 1 - 0.05 / 3, 0), 0.8476911033285882, 1e-9);
    // without degrees of freedom, one pair is no basis
    assert.throws(() => predictivePower({ ...one, df: null }, 9, 1 - 0.05 / 3, 0), RangeError);
  });
});

describe("calibratedT()", () => {
  it("is Student t on the pairs within the fence, and names its screen", () => {
    const xs = [1.5, 1.2, 4.6, 1.9, 1.4, -1.2, 1.6, 1.3, 1.8];
    const iv = calibratedT(NOISE).interval(xs, 0.95);
    const plain = STUDENT_T.interval([1.5, 1.2, 1.9, 1.4, 1.6, 1.3, 1.8], 0.95);
    assert.deepEqual(iv, { ...plain, n: 9, setAside: [5, 2] });
    assert.ok(calibratedT(NOISE).detail!.includes(CALIBRATED_WORDS));
    assert.equal(calibratedT(NOISE).name, REPEATED_METHOD.name);
  });

  it("lets one clean pair among three keep the climb in play where the look alone would stop it", () => {
    // the first shape: look 1 of 3/9, one pair stalled (per-run sd 0.5, min_effect 0.2)
    const xs = [2.8, 0.49, -4.5];
    const level = 1 - 0.05 / 3;
    const chance = (bases: readonly Parameters<typeof predictivePower>[0][]) =>
      Math.max(...bases.map((b) => predictivePower(b, 9, level, 0.2, 8)));
    const today = REPEATED_METHOD.futilityBases!(xs, level);
    const calibrated = calibratedT({ sd: 0.71, pairs: 20 }).futilityBases!(xs, level);
    assert.ok(chance(today) < 0.2, `today's chance ${chance(today)}`);
    assert.ok(chance(calibrated) >= 0.2, `calibrated chance ${chance(calibrated)}`);
  });
});

describe("calibratedNoise()", () => {
  it("is the sd of the A/A improvements the ESD test at 1% keeps, with the pairs kept", () => {
    const aa = [0.3, -0.5, 0.8, -0.2, 0.1, -0.9, 0.6, 0.4, -0.3, 0.0, 0.2, -0.6];
    assert.deepEqual(calibratedNoise(aa), { sd: STUDENT_T.interval(aa, 0.5).sd!, pairs: 12 });
    const stalled = [...aa, 9.5];
    assert.deepEqual(calibratedNoise(stalled), { sd: STUDENT_T.interval(aa, 0.5).sd!, pairs: 12 });
  });

  it("is null below 3 pairs or without spread", () => {
    assert.equal(calibratedNoise([0.1, 0.2]), null);
    assert.equal(calibratedNoise([0.1, 0.1, 0.1, 0.1]), null);
  });
});
