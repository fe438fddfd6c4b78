import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import {
  comparedSeries,
  readRoundSeries,
  roundInterval,
  valuesAndDeltas,
  watchedOf,
} from "../../src/verdict/round_series.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

const withSibling = contract({
  siblings: [{ name: "mem", command: "s", metric: "rss", direction: "minimize", tolerance: 1 }],
  guards: [{ metric: "size", direction: "minimize", tolerance: 2 }],
});

describe("watchedOf()", () => {
  it("lists the siblings, then the guards, each naming its series per arm and pair", () => {
    const w = watchedOf(withSibling);
    assert.deepEqual(w.map((x) => [x.kind, x.name, x.metric, x.direction]), [
      ["sibling", "mem", "rss", "minimize"],
      ["guard", "size", "size", "minimize"],
    ]);
    assert.equal(w[0]!.nameOf(0), "sib-mem-base");
    assert.equal(w[0]!.nameOf(2, 3), "sib-mem-cand-2#3");
    assert.equal(w[1]!.nameOf(1), "guard-size-cand");
  });
});

describe("readRoundSeries()", () => {
  it("reads each arm's benchmark and watched series, pair 1 first; a number is one pair", () => {
    const s = readRoundSeries(contract(), 2, { baseline: [1, 2], candidate: [3, 4], "candidate-2": 5 });
    assert.deepEqual(s.arms.map((a) => [a.arm, a.bench]), [[0, [1, 2]], [1, [3, 4]], [2, [5]]]);
  });

  it("refuses a name the round does not measure, a non-finite value, and a sibling series of another length", () => {
    assert.throws(
      () => readRoundSeries(contract(), 2, { baseline: [1], "candidate-3": [1] }),
      /measure "candidate-3" is not one of a round of 2 candidates/,
    );
    assert.throws(() => readRoundSeries(contract(), 1, { baseline: [1, NaN] }), /"baseline#2" has no finite value/);
    assert.throws(
      () =>
        readRoundSeries(withSibling, 1, {
          baseline: [1, 2],
          candidate: [1, 2],
          "sib-mem-base": [1],
          "sib-mem-cand": [1, 2],
          "guard-size-base": [1, 2],
          "guard-size-cand": [1, 2],
        }),
      /"sib-mem-base" has 1 values, "baseline" has 2/,
    );
  });
});

describe("comparedSeries() and roundInterval()", () => {
  const values = {
    baseline: [10, 20, 30],
    candidate: [11, 22, 33],
    "sib-mem-base": [5, 5, 5],
    "sib-mem-cand": [4, 6, 5],
    "guard-size-base": [1, 1, 1],
    "guard-size-cand": [1, 1, 1],
  };
  const s = readRoundSeries(withSibling, 1, values);

  it("takes the pairs from+1..to of the benchmark or a watched quantity", () => {
    assert.deepEqual(comparedSeries(withSibling, s, 1, null, 1, 3), {
      metric: "acc",
      direction: "maximize",
      baseName: "baseline",
      candName: "candidate",
      base: [20, 30],
      cand: [22, 33],
    });
    const sib = comparedSeries(withSibling, s, 1, 0, 0, 2);
    assert.deepEqual([sib.metric, sib.direction, sib.candName, sib.cand], ["rss", "minimize", "sib-mem-cand", [4, 6]]);
  });

  it("gives the interval of the compared pairs", () => {
    const iv = roundInterval(comparedSeries(withSibling, s, 1, null, 0, 3), 0.95, 0);
    assert.equal(iv.n, 3);
    assert.equal(iv.mean, 2);
    assert.ok(iv.lower < 2 && iv.upper > 2);
  });
});

describe("valuesAndDeltas()", () => {
  it("keys every value and difference as decision.json does: a sibling's difference, a guard's by its own name", () => {
    const s = readRoundSeries(withSibling, 1, {
      baseline: [10, 20],
      candidate: [11, 22],
      "sib-mem-base": [5, 5],
      "sib-mem-cand": [4, 6],
      "guard-size-base": [1, 1],
      "guard-size-cand": [2, 1],
    });
    const { values, deltas } = valuesAndDeltas(withSibling, s);
    assert.equal(values["baseline#2"], 20);
    assert.equal(values["sib-mem-cand#2"], 6);
    assert.deepEqual(deltas, {
      candidate: 1,
      "candidate#2": 2,
      "sib-mem": -1,
      "sib-mem#2": 1,
      "guard-size-cand": 1,
      "guard-size-cand#2": 0,
    });
  });
});
