import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalCdf, normalQuantile } from "../../src/stats/normal.ts";
import { logGamma, regularizedBeta } from "../../src/stats/special.ts";
import { tCdf, tPdf, tQuantile } from "../../src/stats/student_t.ts";

/** |actual − expected| within `rel` of |expected| (or `rel` absolute near zero). */
function near(actual: number, expected: number, rel = 1e-8): void {
  const tol = rel * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual} (off by ${actual - expected})`);
}

describe("tQuantile()", () => {
  // published tables (NIST/SEMATECH e-Handbook 1.3.6.7.2) and scipy.stats.t.ppf, to the digits printed
  const table: [number, number, number][] = [
    [0.975, 1, 12.7062047],
    [0.975, 2, 4.30265273],
    [0.975, 3, 3.18244631],
    [0.975, 10, 2.22813885],
    [0.975, 30, 2.04227246],
    [0.995, 5, 4.03214298],
    [0.99, 3, 4.54070286],
    [0.9, 7, 1.41492393],
  ];
  for (const [p, df, t] of table) {
    it(`gives t(${p}, ${df}) = ${t} as the published tables do, to every printed digit`, () => {
      const decimals = String(t).split(".")[1]!.length;
      assert.equal(tQuantile(p, df).toFixed(decimals), t.toFixed(decimals));
    });
  }

  it("is symmetric: t(1 − p) = −t(p), and t(0.5) = 0", () => {
    near(tQuantile(0.025, 4), -tQuantile(0.975, 4), 1e-14);
    assert.equal(tQuantile(0.5, 4), 0);
  });

  it("reaches far tails and non-integer df (values from scipy.stats.t.ppf)", () => {
    near(tQuantile(1e-6, 4), -41.577854150450975, 1e-9);
    near(tQuantile(0.999, 2.5), 13.82219311086596, 1e-9);
  });

  it("approaches the normal quantile as df grows", () => {
    near(tQuantile(0.975, 1000), 1.96233908, 1e-8);
    near(tQuantile(0.975, 1e6), normalQuantile(0.975), 1e-5);
  });

  it("inverts tCdf() to 1e-12 over a spread of p and df", () => {
    for (const df of [1, 2, 3, 4, 7, 11, 30, 200]) {
      for (const p of [0.6, 0.8, 0.9, 0.975, 0.99, 0.9999]) near(tCdf(tQuantile(p, df), df), p, 1e-12);
    }
  });

  it("refuses df below 1 and p outside [0, 1]", () => {
    assert.throws(() => tQuantile(0.9, 0.5), RangeError);
    assert.throws(() => tQuantile(1.5, 3), RangeError);
    assert.equal(tQuantile(1, 3), Infinity);
  });
});

describe("tCdf()", () => {
  // closed forms: df 1 (Cauchy), df 2, df 3
  const closed: [number, (t: number) => number][] = [
    [1, (t) => 0.5 + Math.atan(t) / Math.PI],
    [2, (t) => 0.5 + t / (2 * Math.sqrt(2 + t * t))],
    [3, (t) => 0.5 + (t / (Math.sqrt(3) * (1 + t * t / 3)) + Math.atan(t / Math.sqrt(3))) / Math.PI],
  ];
  for (const [df, cdf] of closed) {
    it(`matches the closed form for df ${df} to 1e-14`, () => {
      for (const t of [-50, -3, -1, -0.2, 0, 0.3, 1, 2.5, 10, 100]) near(tCdf(t, df), cdf(t), 1e-14);
    });
  }

  it("matches scipy.stats.t.cdf at df 4 and 7", () => {
    near(tCdf(1.5, 4), 0.896, 1e-12);
    near(tCdf(-3.2, 7), 0.0075329056712446505, 1e-12);
  });

  it("has the density as its slope", () => {
    const h = 1e-5;
    near((tCdf(1.3 + h, 5) - tCdf(1.3 - h, 5)) / (2 * h), tPdf(1.3, 5), 1e-8);
  });
});

describe("the normal distribution", () => {
  it("gives the familiar quantiles 1.959963984540054 and 0.8416212335729143", () => {
    near(normalQuantile(0.975), 1.959963984540054, 1e-14);
    near(normalQuantile(0.8), 0.8416212335729143, 1e-14);
    near(normalQuantile(0.995), 2.5758293035489004, 1e-14);
    near(normalQuantile(1e-10), -6.361340902404056, 1e-13);
  });

  it("keeps relative precision in the far tail: Φ(−8) = 6.22096057427178e-16", () => {
    const v = normalCdf(-8);
    assert.ok(Math.abs(v / 6.22096057427178e-16 - 1) < 1e-12, String(v));
    assert.equal(normalCdf(0), 0.5);
  });
});

describe("the special functions", () => {
  it("logGamma() gives ln Γ at integers and at ½", () => {
    near(logGamma(1), 0, 1e-14);
    near(logGamma(5), Math.log(24), 1e-14);
    near(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-14);
    near(logGamma(171.5), 709.1431630309282, 1e-13); // Python math.lgamma
    near(logGamma(0.1), 2.2527126517342055, 1e-13);
  });

  it("regularizedBeta() matches I_x(a, 1) = x^a and I_x(1, b) = 1 − (1 − x)^b", () => {
    near(regularizedBeta(0.3, 2.5, 1), 0.3 ** 2.5, 1e-14);
    near(regularizedBeta(0.7, 1, 3.5), 1 - 0.3 ** 3.5, 1e-14);
    assert.equal(regularizedBeta(0, 2, 3), 0);
    assert.equal(regularizedBeta(1, 2, 3), 1);
  });
});
