import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isThreshold, seedEnvProblem, textProblem } from "../../src/contract/field_checks.ts";

describe("textProblem()", () => {
  it("refuses a NUL and a lone surrogate, and accepts any other text", () => {
    assert.match(textProblem("a\u0000b")!, /NUL character/);
    assert.match(textProblem("x\ud800")!, /lone surrogate/);
    for (const ok of ["", "sh bench.sh", "énergie ✓", "\ud83d\ude00"]) assert.equal(textProblem(ok), null, ok);
  });
});

describe("seedEnvProblem()", () => {
  it("accepts no seed variable and a plain name the job does not set", () => {
    assert.equal(seedEnvProblem(""), null);
    assert.equal(seedEnvProblem("BENCH_SEED"), null);
    assert.equal(seedEnvProblem("_s1"), null);
  });

  it("refuses what is not a shell identifier, naming what it got", () => {
    assert.match(seedEnvProblem("1SEED")!, /expected a variable name .*"1SEED"/);
    assert.match(seedEnvProblem("BENCH-SEED")!, /expected a variable name/);
  });

  it("refuses a variable the eval job sets itself, and says what to name it instead", () => {
    for (const name of ["OUTERLOOP_RESULT", "OUTERLOOP_JOB_ID", "OUTERLOOP_PAIR"]) {
      assert.match(seedEnvProblem(name)!, /is set by the eval job itself; .*BENCH_SEED/, name);
    }
  });

  it("refuses a variable the job passes on from its environment, and one a loader reads", () => {
    assert.match(seedEnvProblem("PATH")!, /passed to the eval job from its environment/);
    assert.notEqual(seedEnvProblem("LD_PRELOAD"), null);
  });

  it("leaves a NUL or a lone surrogate to textProblem", () => {
    assert.equal(seedEnvProblem("A\u0000"), null);
    assert.equal(seedEnvProblem("A\ud800"), null);
  });
});

describe("isThreshold()", () => {
  it("is a finite number >= 0 or a percentage as written ('2%', '0.5%')", () => {
    for (const ok of [0, 0.5, 12, "2%", "0.5%", "0%", "100%"]) assert.equal(isThreshold(ok), true, String(ok));
    for (const bad of [-1, Infinity, NaN, "2", "02%", "2 %", "-2%", ".5%", "2%%", null, undefined, {}]) {
      assert.equal(isThreshold(bad), false, String(bad));
    }
  });
});
