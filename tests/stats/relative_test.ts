import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { logImprovements, logThreshold, ratioOf, relativeEstimate, relativeWhy } from "../../src/stats/relative.ts";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import { SCREENED_T } from "../../src/stats/screened_t.ts";
import { normal, seededRandom } from "../helpers/seeded_random.ts";

const close = (a: number, b: number, rel = 1e-12) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

describe("relativeEstimate()", () => {
  it("is the geometric mean of the pairs' ratios, with the t interval of the log ratios brought back by exp", () => {
    const base = [10, 10, 10, 10];
    const cand = [8, 9, 8.5, 9.5];
    const r = relativeEstimate("minimize", base, cand, 0.95, STUDENT_T, "m")!;
    const logs = cand.map((c, i) => Math.log(c / base[i]!));
    const iv = STUDENT_T.interval(logs, 0.95);
    assert.ok(close(r.mean, Math.exp(iv.mean)));
    assert.ok(close(r.lower, Math.exp(iv.lower)) && close(r.upper, Math.exp(iv.upper)));
    assert.ok(close(r.mean, (0.8 * 0.9 * 0.85 * 0.95) ** 0.25));
    assert.deepEqual([r.n, r.confidence, r.method, r.setAside], [4, 0.95, "m", []]);
  });

  it("gives one pair's ratio with no interval (lower = upper = mean)", () => {
    const r = relativeEstimate("maximize", [4], [5], 0.95, STUDENT_T, "single")!;
    assert.ok(close(r.mean, 1.25));
    assert.deepEqual([r.lower, r.upper], [r.mean, r.mean]);
  });

  it("is null, and says why, when a value is 0 or negative", () => {
    assert.equal(relativeEstimate("maximize", [1, 0], [1, 2], 0.95, STUDENT_T, "m"), null);
    assert.equal(relativeEstimate("minimize", [1, 2], [-1, 2], 0.95, STUDENT_T, "m"), null);
    assert.equal(logImprovements("minimize", [1], [0]), null);
    assert.match(relativeWhy("t", [1, 2], [-1, 2])!, /"t" has a value of -1: a ratio needs every value above 0/);
    assert.equal(relativeWhy("t", [1, 2], [1, 2]), null);
  });

  it("is exactly mirrored between t minimized and 1/t maximized: r vs 1/r, [a, b] vs [1/b, 1/a]", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(random() * 12);
      const base = Array.from({ length: n }, () => Math.exp(normal(random)));
      const cand = base.map((b) => b * Math.exp(0.1 * normal(random) + (random() < 0.1 ? 1 : 0)));
      const t = relativeEstimate("minimize", base, cand, 0.97, SCREENED_T, "m")!;
      const rate = relativeEstimate("maximize", base.map((x) => 1 / x), cand.map((x) => 1 / x), 0.97, SCREENED_T, "m")!;
      assert.ok(close(t.mean, 1 / rate.mean, 1e-9), `${t.mean} vs 1/${rate.mean}`);
      assert.ok(close(t.lower, 1 / rate.upper, 1e-9) && close(t.upper, 1 / rate.lower, 1e-9));
      assert.deepEqual(t.setAside.length, rate.setAside.length);
      assert.ok(t.lower <= t.mean && t.mean <= t.upper);
    }
  });
});

describe("ratioOf() and logThreshold()", () => {
  it("turns a minimized metric's log-improvement interval round: cand/base = exp(-l)", () => {
    const iv = { n: 3, mean: 0.1, sd: 0.05, lower: 0.05, upper: 0.15, level: 0.9, df: 2, setAside: [2] };
    const r = ratioOf("minimize", iv, "m");
    assert.ok(close(r.mean, Math.exp(-0.1)) && close(r.lower, Math.exp(-0.15)) && close(r.upper, Math.exp(-0.05)));
    assert.deepEqual(r.setAside, [3]);
    const up = ratioOf("maximize", iv, "m");
    assert.ok(close(up.lower, Math.exp(0.05)) && close(up.upper, Math.exp(0.15)));
  });

  it("reads 2% as the factor 1.02", () => {
    assert.ok(close(Math.exp(logThreshold(0.02)), 1.02));
    assert.equal(logThreshold(0), 0);
  });
});
