import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bonferroniCritical, dunnettCritical, dunnettTail } from "../../src/stats/round_critical.ts";
import { tQuantile } from "../../src/stats/student_t.ts";
import { seededRandom } from "../helpers/seeded_random.ts";

function near(actual: number, expected: number, tol: number): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected} ± ${tol}, got ${actual}`);
}

/** Seeded Box–Muller normals: the test's own, independent of the code under test. */
function normals(seed: number): () => number {
  const uniform = seededRandom(seed);
  // shifted half a step into (0, 1), so log() never meets 0
  const u = () => uniform() + 2 ** -33;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

/**
 * P(max over k arms of (Y_k − Y_0)/√2 / S > c) by Monte Carlo: k candidates
 * and a baseline of independent normals (so the k statistics share the
 * baseline, correlation ½) over one shared variance estimate S² ~ χ²_df/df.
 */
function monteCarloTail(c: number, k: number, df: number, draws: number, seed: number): number {
  const z = normals(seed);
  let above = 0;
  for (let i = 0; i < draws; i++) {
    let chi2 = 0;
    for (let j = 0; j < df; j++) chi2 += z() ** 2;
    const s = Math.sqrt(chi2 / df);
    const y0 = z();
    let max = -Infinity;
    for (let a = 0; a < k; a++) max = Math.max(max, (z() - y0) / Math.SQRT2);
    if (max / s > c) above++;
  }
  return above / draws;
}

describe("dunnettCritical()", () => {
  it("gives DESIGN.md's one-sided large-df values at 0.05: 2.16, 2.38, 2.58 for 4, 8, 16 candidates", () => {
    near(dunnettCritical(4, 0.05, Infinity), 2.16, 0.005);
    near(dunnettCritical(8, 0.05, Infinity), 2.38, 0.005);
    near(dunnettCritical(16, 0.05, Infinity), 2.58, 0.005);
  });

  it("agrees with scipy's multivariate t (quasi-Monte Carlo) at small df to 2e-3", () => {
    // scipy.stats.multivariate_t(shape: 1 on the diagonal, 0.5 off it).cdf, root by brentq
    near(dunnettCritical(2, 0.05, 20), 2.0273, 2e-3);
    near(dunnettCritical(4, 0.05, 7), 2.619, 2e-3);
    near(dunnettCritical(8, 0.05, 20), 2.5594, 2e-3);
    near(dunnettCritical(16, 0.05, 3), 4.6121, 2e-3);
  });

  it("has the stated tail by a seeded Monte Carlo of shared-baseline statistics (200000 draws, 4 se)", () => {
    const draws = 200_000;
    const tol = 4 * Math.sqrt(0.05 * 0.95 / draws);
    near(monteCarloTail(dunnettCritical(4, 0.05, 7), 4, 7, draws, 11), 0.05, tol);
    near(monteCarloTail(dunnettCritical(8, 0.025, 11), 8, 11, draws, 12), 0.025, 4 * Math.sqrt(0.025 * 0.975 / draws));
  });

  it("lies between one comparison's value and Bonferroni's, and is one comparison's for k = 1", () => {
    for (const [k, df] of [[2, 5], [4, 11], [16, 30]] as const) {
      const c = dunnettCritical(k, 0.05, df);
      assert.ok(c > tQuantile(0.95, df) && c < bonferroniCritical(k, 0.05, df), `k ${k}, df ${df}: ${c}`);
    }
    assert.equal(dunnettCritical(1, 0.05, 9), tQuantile(0.95, 9));
  });

  it("solves dunnettTail(c) = alpha", () => {
    near(dunnettTail(dunnettCritical(4, 0.01, 9), 4, 9), 0.01, 1e-6);
  });

  it("refuses k below 1, alpha outside (0, 0.5) and df below 1", () => {
    assert.throws(() => dunnettCritical(0, 0.05, 5), RangeError);
    assert.throws(() => dunnettCritical(2, 0.6, 5), RangeError);
    assert.throws(() => dunnettCritical(2, 0.05, 0), RangeError);
  });
});

describe("bonferroniCritical()", () => {
  it("gives DESIGN.md's large-df values at 0.05: 2.24, 2.50, 2.73 for 4, 8, 16 candidates", () => {
    near(bonferroniCritical(4, 0.05, Infinity), 2.2414, 1e-4);
    near(bonferroniCritical(8, 0.05, Infinity), 2.4977, 1e-4);
    near(bonferroniCritical(16, 0.05, Infinity), 2.7344, 1e-4);
  });

  it("is the t quantile at 1 − alpha/k", () => {
    assert.equal(bonferroniCritical(4, 0.05, 7), tQuantile(1 - 0.0125, 7));
  });
});
