import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import type { ComparedSeries } from "../../src/verdict/finite_interval.ts";
import { judgedSide } from "../../src/verdict/judged_side.ts";

const name = (n: string, pair: number) => (pair === 1 ? n : `${n}#${pair}`);
const series = (base: number[], cand: number[], direction: "maximize" | "minimize" = "minimize"): ComparedSeries => ({
  metric: "ms",
  direction,
  baseName: "baseline",
  candName: "candidate",
  base,
  cand,
});

describe("judgedSide()", () => {
  it("an absolute threshold judges the improvements in the metric's units", () => {
    const s = judgedSide(series([10, 10, 10], [9, 8, 9]), "absolute", 0.5, 0.95, name, STUDENT_T, "Student t");
    assert.deepEqual(s.judgedImprovements, [1, 2, 1]);
    assert.equal(s.judged, s.absolute);
    assert.equal(s.threshold, 0.5);
    assert.ok(Math.abs(s.absolute.mean - 4 / 3) < 1e-12);
    assert.ok(s.relative !== null && s.relative.mean < 1, "the ratio: the candidate is faster");
  });

  it("a relative threshold judges the log improvements against log(1 + fraction)", () => {
    const s = judgedSide(series([10, 10], [9, 9]), "relative", 0.02, 0.95, name, STUDENT_T, "Student t");
    assert.equal(s.threshold, Math.log1p(0.02));
    for (const l of s.judgedImprovements) assert.ok(Math.abs(l - Math.log(10 / 9)) < 1e-12);
    assert.ok(Math.abs(s.judged.mean - Math.log(10 / 9)) < 1e-12);
    assert.ok(Math.abs(s.absolute.mean - 1) < 1e-12, "the metric's units are kept beside it");
  });

  it("a relative threshold on a value ≤ 0 cannot be judged: an EvalError naming the measures", () => {
    assert.throws(
      () => judgedSide(series([10, 0], [9, 1]), "relative", 0.02, 0.95, name, STUDENT_T, "Student t"),
      (err: Error) =>
        err instanceof EvalError &&
        /a relative threshold \("2%"\) is judged on the ratio of "baseline" and "candidate"/.test(err.message) &&
        /give the threshold in the metric's units/.test(err.message),
    );
  });
});
