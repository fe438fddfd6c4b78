import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { exitCodeFor } from "../../src/cli/shared/errors.ts";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { decide } from "../../src/verdict/decide.ts";
import { pairMeasureName } from "../../src/measure/measure_name.ts";
import { finiteInterval } from "../../src/verdict/finite_interval.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

/** Asserts `fn` throws an EvalError (exit 3) whose message is `message` or matches it. */
function assertEvalError(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof EvalError, String(err));
    assert.equal(exitCodeFor(err), 3);
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

describe("decide() on values whose difference leaves the doubles", () => {
  it("fails as an evaluation (exit 3) when candidate − baseline overflows, naming both measures and values", () => {
    assertEvalError(
      () => decide(contract(), { baseline: 1.7e308, candidate: -1.7e308 }),
      'Cannot decide: the difference of measures "candidate" (-1.7e+308) and "baseline" (1.7e+308) overflows to ' +
        '-Infinity; check what the benchmark reports as "acc"',
    );
    assertEvalError(
      () => decide(contract({ direction: "minimize" }), { baseline: -1.7e308, candidate: 1.7e308 }),
      /"candidate" \(1\.7e\+308\) and "baseline" \(-1\.7e\+308\) overflows to Infinity/,
    );
  });

  it("names a sibling's measures and metric, and a later pair's by its number", () => {
    const c = contract({ siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize" }] });
    assertEvalError(
      () => decide(c, { baseline: 1, candidate: 2, "sib-lat-base": -1e308, "sib-lat-cand": 1e308 }),
      /the difference of measures "sib-lat-cand" \(1e\+308\) and "sib-lat-base" \(-1e\+308\) overflows to Infinity; .*"ms"$/,
    );
    const two = contract({ repeats: 2 });
    assertEvalError(
      () => decide(two, { baseline: [1, 1.7e308], candidate: [2, -1.7e308] }),
      /the difference of measures "candidate#2" \(-1\.7e\+308\) and "baseline#2" \(1\.7e\+308\)/,
    );
  });

  it("fails when each pair's difference is finite but their spread overflows the interval", () => {
    // improvements +1.7e308 and −1.7e308: each a double, their difference is not
    assertEvalError(
      () => decide(contract({ repeats: 2 }), { baseline: [0, 1.7e308], candidate: [1.7e308, 0] }),
      /^Cannot decide: the improvements of "baseline" and "candidate" over 2 pairs \(1\.7e\+308, -1\.7e\+308\) spread too widely/,
    );
  });

  it("decides values that are large but comparable as before", () => {
    const d = decide(contract(), { baseline: 1e308, candidate: 1.5e308 });
    assert.equal(d.verdict, "accept");
    assert.equal(d.deltas["candidate"], 5e307);
  });
});

describe("finiteInterval()", () => {
  it("is pairedInterval() of the improvements for finite ones", () => {
    const iv = finiteInterval(
      { metric: "m", direction: "minimize", baseName: "b", candName: "c", base: [3, 5], cand: [1, 2] },
      0.95,
      pairMeasureName,
    );
    assert.deepEqual([iv.n, iv.mean, iv.sd], [2, 2.5, Math.SQRT1_2]);
  });
});
