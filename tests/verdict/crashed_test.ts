import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { crashedDecision, crashedReason } from "../../src/verdict/crashed.ts";
import { decideRound } from "../../src/verdict/round.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

describe("crashedDecision()", () => {
  it("is the verdict crashed with the cause, keeping every value measured and judging none", () => {
    const c = contract({ repeats: 4, siblings: [{ name: "lat", command: "x", metric: "ms", direction: "minimize" }] });
    const d = crashedDecision(c, {
      baseline: [10, 11, 12],
      candidate: [12, 13],
      "sib-lat-base": [5, 5],
      "sib-lat-cand": [4, 4],
    }, { measure: "candidate#3", cause: "eval exited with code 1" });
    assert.equal(d.verdict, "crashed");
    assert.deepEqual(d.values, {
      baseline: 10,
      "baseline#2": 11,
      "baseline#3": 12,
      candidate: 12,
      "candidate#2": 13,
      "sib-lat-base": 5,
      "sib-lat-base#2": 5,
      "sib-lat-cand": 4,
      "sib-lat-cand#2": 4,
    });
    assert.deepEqual(d.deltas, { candidate: 2, "candidate#2": 2, "sib-lat": -1, "sib-lat#2": -1 });
    assert.deepEqual(d.reasons, [
      'candidate crashed: eval exited with code 1 (measure "candidate#3"); nothing it measured is judged: ' +
      "read its log, fix or discard it",
    ]);
    assert.deepEqual(d.crash, { measure: "candidate#3", cause: "eval exited with code 1" });
  });

  it("takes a crash on the first pair, with nothing measured but the baseline", () => {
    const d = crashedDecision(contract(), { baseline: 10 }, { measure: "candidate", cause: "no metric" });
    assert.deepEqual([d.values, d.deltas], [{ baseline: 10 }, {}]);
    assert.match(crashedReason(d.crash), /^candidate crashed: no metric/);
  });
});

describe("decideRound() with crashed candidates", () => {
  // repeats 4, max_repeats 8: the screen's first part is pairs 1–2 of every candidate
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });

  it("takes a crashed arm out of play at once; the others go on as if the screen had dropped it", () => {
    // candidate 2 crashed on pair 1 (no values); candidates 1 and 3 screened on pairs 1–2 as a round of two
    const values = { baseline: [10, 20], candidate: [14, 25], "candidate-3": [9, 20] };
    const d = decideRound(c, 3, { ...values, "candidate-2": [] }, {
      crashed: new Map([[2, { pair: 1, cause: "eval exited with code 1" }]]),
    });
    assert.deepEqual(d.calls.map((x) => [x.arm, x.standing, x.because, x.verdict, x.pairs]), [
      [1, "in-play", null, "inconclusive", 2],
      [2, "dropped", "crashed", "crashed", 0],
      [3, "dropped", "hopeless", "inconclusive", 2],
    ]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [1], stage: "confirm", fresh: true });
    assert.match(d.reasons.at(-1)!, /^candidate crashed: eval exited with code 1 \(measure "candidate-2"\)/);
    assert.equal(d.calls[1]!.screen, null);
  });

  it("keeps a crashed arm's pairs before the crash, never judged", () => {
    // candidate 2 crashed on pair 2, before the screen's first look: its pair 1 is kept, no screen estimate
    const d = decideRound(c, 2, { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13] }, {
      crashed: new Map([[2, { pair: 2, cause: "timeout" }]]),
    });
    assert.equal(d.values["candidate-2"], 13);
    assert.deepEqual([d.calls[1]!.verdict, d.calls[1]!.pairs, d.calls[1]!.screen], ["crashed", 1, null]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [1], stage: "confirm", fresh: true });
  });

  it("keeps the screen estimate of an arm that crashed after the screen's first look", () => {
    // pairs 1–2: both in reach (means 4.5 and 4); candidate 2 crashed on pair 3, the screen's second part
    const d = decideRound(c, 2, { baseline: [10, 20, 10, 10], candidate: [14, 25, 11, 11], "candidate-2": [13, 25] }, {
      crashed: new Map([[2, { pair: 3, cause: "timeout" }]]),
    });
    assert.deepEqual([d.calls[1]!.verdict, d.calls[1]!.pairs, d.calls[1]!.screen?.n], ["crashed", 2, 2]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 5, arms: [1], stage: "confirm", fresh: true });
  });

  it("is crashed when every candidate crashed", () => {
    const d = decideRound(c, 2, { baseline: [10, 20], candidate: [], "candidate-2": [] }, {
      crashed: new Map([[1, { pair: 1, cause: "a" }], [2, { pair: 1, cause: "b" }]]),
    });
    assert.deepEqual([d.verdict, d.next, d.winner], ["crashed", { kind: "final" }, null]);
  });

  it("rejects when every candidate was rejected or crashed, at least one rejected", () => {
    const d = decideRound(c, 2, { baseline: [10, 20], candidate: [0, 9], "candidate-2": [] }, {
      crashed: new Map([[2, { pair: 1, cause: "b" }]]),
    });
    assert.deepEqual(d.calls.map((x) => x.verdict), ["reject", "crashed"]);
    assert.equal(d.verdict, "reject");
  });

  it("ends without a winner when the confirmed candidate crashes, and is inconclusive", () => {
    // the screen chose candidate 1 on pairs 1–2; it crashed on pair 4 of its confirmation (pair 3 kept)
    const values = {
      baseline: [10, 20, 10, 10, 10, 10],
      candidate: [14, 25, 13],
      "candidate-2": [13, 22],
      "candidate-3": [9, 20],
    };
    const d = decideRound(c, 3, values, { crashed: new Map([[1, { pair: 4, cause: "segfault" }]]) });
    assert.deepEqual([d.verdict, d.winner, d.next], ["inconclusive", null, { kind: "final" }]);
    assert.deepEqual(d.calls.map((x) => [x.standing, x.because, x.verdict]), [
      ["dropped", "crashed", "crashed"],
      ["dropped", "behind", "inconclusive"],
      ["dropped", "hopeless", "inconclusive"],
    ]);
  });

  it("is decideRound itself with no crash, and takes a round of one's crash", () => {
    const v = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13, 22] };
    assert.deepEqual(decideRound(c, 2, v, { crashed: new Map() }), decideRound(c, 2, v));
    const one = decideRound(c, 1, { baseline: [10], candidate: [] }, {
      crashed: new Map([[1, { pair: 1, cause: "x" }]]),
    });
    assert.deepEqual([one.verdict, one.calls[0]!.because, one.next], ["crashed", "crashed", { kind: "final" }]);
  });

  it("refuses a crash of an arm the round does not have, and crashes under another procedure", () => {
    const v = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13, 22] };
    assert.throws(() => decideRound(c, 2, v, { crashed: new Map([[3, { pair: 1, cause: "x" }]]) }), RangeError);
    assert.throws(
      () => decideRound(c, 2, v, { procedure: "bonferroni", crashed: new Map([[1, { pair: 1, cause: "x" }]]) }),
      /Only the screen-confirm procedure/,
    );
  });
});
