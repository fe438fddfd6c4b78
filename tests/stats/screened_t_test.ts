import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import { pairedInterval } from "../../src/stats/paired.ts";
import {
  esdPairs,
  futilityBases,
  hampelPairs,
  madn,
  median,
  SCREEN_ALPHA,
  SCREEN_FROM,
  screenAlpha,
  screenedInterval,
  screenedT,
  screenThreshold,
} from "../../src/stats/screened_t.ts";
import { HAMPEL_SCREENED_T } from "../../src/stats/screened_t.ts";
import { methodNamed, REPEATED_METHOD } from "../../src/stats/repeated_method.ts";

function near(actual: number, expected: number, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

// eight improvements, one of them a stall: median 1.025, MAD 0.075 (by hand: the deviations sorted are
// .025 .025 .025 .075 .075 .125 .175 10.975), MADN 1.4826·0.075 = 0.111195
const EIGHT = [1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 12.0, 1.0];

describe("screenThreshold()", () => {
  it("is z_n·(1 + 10.5/n + 40/n²), z_n the two-sided Šidák 1% normal quantile over n", () => {
    // z_n from scipy.stats.norm.ppf(1 - (1 - 0.99 ** (1 / n)) / 2)
    const z: [number, number][] = [[6, 3.142755833413536], [8, 3.225961332614224], [12, 3.34020112814892], [
      100,
      3.889385650022939,
    ]];
    for (const [n, zn] of z) near(screenThreshold(n), zn * (1 + 10.5 / n + 40 / (n * n)), 1e-7);
    near(screenThreshold(8), 9.476261414554283, 1e-7);
  });

  it("lies above the simulated 99th percentile of max|d − median|/MADN for clean normal samples", () => {
    // scripts/screen_threshold.py (2·10⁶ samples for n ≤ 7, fewer above); n = 7 is the one near miss
    const q99: [number, number][] = [[6, 10.05], [8, 7.95], [10, 6.93], [12, 6.32], [20, 5.22], [30, 4.78]];
    for (const [n, q] of q99) assert.ok(screenThreshold(n) > q, `n ${n}: ${screenThreshold(n)} <= ${q}`);
  });
});

describe("hampelPairs()", () => {
  it("finds the pair further than c_n MADN from the median", () => {
    near(median(EIGHT), 1.025);
    near(madn(EIGHT), 1.4826 * 0.075);
    assert.deepEqual(hampelPairs(EIGHT), [6]);
  });

  it("lists the pairs set aside lowest improvement first, whichever side", () => {
    const xs = [1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 12.0, 1.0, -15, 1.02];
    assert.deepEqual(hampelPairs(xs), [8, 6]);
  });

  it(`screens nothing below ${SCREEN_FROM} pairs, when the MAD is 0, or in tight data`, () => {
    assert.equal(SCREEN_FROM, 6);
    assert.deepEqual(hampelPairs([1, 1.1, 0.9, 1.05, 40]), []);
    assert.deepEqual(hampelPairs([2, 2, 2, 2, 2, 9]), []); // half the values equal: no spread to judge by
    assert.deepEqual(hampelPairs([1, 1.4, 0.7, 1.1, 0.95, 1.3, 0.8]), []);
  });
});

// nine improvements, two of them stalls (a look of the stall model of issue 22). The ESD steps by hand (numpy,
// scipy.stats.t.ppf): R1 = 1.9234 < λ1 = 2.4920 (the second stall masks the first), R2 = 2.4546 > λ2 = 2.3586,
// R3 = 1.1651 < 2.2006, R4 = 1.1521 < 2.0107: two outlying. The Hampel rule sets aside one of them only.
const TWO_STALLS = [1.72, -10.55, -12.51, 0.59, 1.64, 0.69, 1.88, 1.37, 0.55];

describe("screenAlpha()", () => {
  it("is 0.2% at the default designs' looks and an eighth of 1 − level above them", () => {
    assert.equal(screenAlpha(0.95), 0.002);
    assert.equal(screenAlpha(1 - 0.05 / 3), 0.002); // a look of 95% split over three looks
    near(screenAlpha(0.998), 0.00025, 1e-15);
  });

  it("keeps a clean pair the test at 0.2% would set aside when the interval's confidence is very high", () => {
    // nine pairs, the widest far out (scipy): R1 = 2.537 > λ1 = 2.492 at 0.2%, < λ1 = 2.571 at 0.025%
    const xs = [0.1, -0.3, 0.2, 0.05, -0.1, 0.15, -0.2, 0.0, 1.5];
    assert.deepEqual(esdPairs(xs, SCREEN_ALPHA), [8]);
    assert.deepEqual(esdPairs(xs, screenAlpha(0.998)), []);
    assert.deepEqual(screenedInterval(xs, 0.998).setAside, []);
    assert.deepEqual(screenedInterval(xs, 0.95).setAside, [8]);
  });
});

describe("esdPairs()", () => {
  it("finds two stalls among nine where the second masks the first at step one", () => {
    assert.equal(SCREEN_ALPHA, 0.002);
    assert.deepEqual(esdPairs(TWO_STALLS), [2, 1]);
    assert.deepEqual(hampelPairs(TWO_STALLS), [2]);
  });

  it("finds the one stall among eight and lists what it sets aside lowest first", () => {
    assert.deepEqual(esdPairs(EIGHT), [6]);
    assert.deepEqual(esdPairs([1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 12.0, 1.0, -15, 1.02]), [8, 6]);
  });

  it(`screens nothing below ${SCREEN_FROM} pairs, with no spread, or in clean data`, () => {
    assert.deepEqual(esdPairs([1, 1.1, 0.9, 1.05, 40]), []);
    assert.deepEqual(esdPairs([2, 2, 2, 2, 2, 2]), []);
    assert.deepEqual(esdPairs([1, 1.4, 0.7, 1.1, 0.95, 1.3, 0.8]), []);
    // a clean sample's widest pair is kept: 2.5 sd out among ten is well inside λ1 = 2.60 at 0.2%
    assert.deepEqual(esdPairs([0.1, -0.3, 0.2, 0.05, -0.1, 0.15, -0.2, 0.0, 0.25, 1.1]), []);
  });
});

describe("screenedInterval()", () => {
  it("is the Student t interval of the pairs the ESD test keeps: two stalls among nine", () => {
    // the seven kept: mean 1.205714285714286, sd 0.5787589349305156, t(0.975, 6) 2.4469118511449786
    const iv = screenedInterval(TWO_STALLS, 0.95);
    assert.deepEqual([iv.n, iv.df, iv.setAside], [9, 6, [2, 1]]);
    near(iv.mean, 1.205714285714286, 1e-12);
    near(iv.sd!, 0.5787589349305156, 1e-12);
    near(iv.lower, 1.205714285714286 - 2.4469118511449786 * 0.5787589349305156 / Math.sqrt(7), 1e-9);
  });

  it("is the Student t interval of the kept pairs, n counting every pair", () => {
    // the seven kept: mean 1.0285714285714287, sd 0.0994029797388005, 95% CI 0.9366390053898543 to
    // 1.120503851753003 (numpy mean/std(ddof=1), scipy.stats.t.ppf(0.975, 6))
    const iv = screenedInterval(EIGHT, 0.95);
    assert.equal(iv.n, 8);
    assert.deepEqual(iv.setAside, [6]);
    assert.equal(iv.df, 6);
    near(iv.mean, 1.0285714285714287, 1e-12);
    near(iv.sd!, 0.0994029797388005, 1e-12);
    near(iv.lower, 0.9366390053898543, 1e-9);
    near(iv.upper, 1.120503851753003, 1e-9);
  });

  it("is exactly Student t's interval when nothing is screened: small n, n = 1, equal values", () => {
    for (const xs of [[1.5], [1, 3], [1, 2, 3, 40], [1, 1.4, 0.7, 1.1, 0.95, 1.3, 0.8], [0.1, 0.1, 0.1]]) {
      const t = pairedInterval(xs, 0.95);
      assert.deepEqual(screenedInterval(xs, 0.95), { ...t, df: xs.length === 1 ? null : xs.length - 1, setAside: [] });
      assert.deepEqual(screenedInterval(xs, 0.95), STUDENT_T.interval(xs, 0.95));
    }
    assert.deepEqual(screenedInterval([1.5], 0.9), {
      n: 1,
      mean: 1.5,
      sd: null,
      lower: 1.5,
      upper: 1.5,
      level: 0.9,
      df: null,
      setAside: [],
    });
  });
});

describe("futilityBases()", () => {
  it("is the look's interval alone for clean data and below 3 pairs", () => {
    assert.deepEqual(futilityBases([1, 1.2, 0.9, 1.1], 0.95), [STUDENT_T.interval([1, 1.2, 0.9, 1.1], 0.95)]);
    assert.deepEqual(futilityBases([1, 2], 0.95), [STUDENT_T.interval([1, 2], 0.95)]);
  });

  it("at 3 pairs asks the interval without the one stalled pair too (deletion test and fence)", () => {
    const stalled = [1.4, 1.6, -10.5];
    const bases = futilityBases(stalled, 0.95);
    assert.deepEqual(bases[0], STUDENT_T.interval(stalled, 0.95));
    assert.ok(bases.length >= 2);
    for (const b of bases.slice(1)) {
      assert.deepEqual(b, { ...STUDENT_T.interval([1.4, 1.6], 0.95), n: 3, setAside: [2] });
    }
  });

  it("from 6 pairs on starts from the screened interval and adds the fence's basis for two stalls among six", () => {
    const six = [0.78, 0.46, 2.57, 3.08, 13.19, -9.87];
    const bases = futilityBases(six, 0.95);
    assert.deepEqual(bases[0], screenedInterval(six, 0.95));
    const kept = bases.find((b) => b.setAside.length === 2);
    assert.ok(kept !== undefined, "a basis without both stalls");
    near(kept.mean, (0.78 + 0.46 + 2.57 + 3.08) / 4, 1e-12);
  });

  it("before issue 22 ('flagged'): below 6 pairs, the interval without a pair the Hampel rule flags", () => {
    const xs = [5, 5.2, 4.9, -50];
    const bases = futilityBases(xs, 0.95, hampelPairs, "flagged");
    assert.equal(bases.length, 2);
    assert.deepEqual(bases[0], STUDENT_T.interval(xs, 0.95));
    assert.deepEqual(bases[1], { ...STUDENT_T.interval([5, 5.2, 4.9], 0.95), n: 4, setAside: [3] });
    assert.deepEqual(futilityBases(EIGHT, 0.95, hampelPairs, "flagged"), [screenedInterval(EIGHT, 0.95, hampelPairs)]);
  });
});

describe("methodNamed()", () => {
  it("checks a decision by the screen it was made by", () => {
    assert.equal(methodNamed(`paired ${REPEATED_METHOD.name} (${REPEATED_METHOD.detail})`), REPEATED_METHOD);
    assert.equal(
      methodNamed("paired screened Student t (outlying pairs set aside from 6 pairs on)"),
      HAMPEL_SCREENED_T,
    );
    assert.equal(methodNamed("paired Student t").name, "Student t");
    assert.equal(screenedT({ screen: "hampel" }).detail, "outlying pairs set aside from 6 pairs on");
  });
});
