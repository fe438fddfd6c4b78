import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { decideLook } from "../../src/verdict/decide.ts";
import {
  decideScreenConfirm,
  decideScreenConfirmWithCrashes,
  planScreenConfirm,
} from "../../src/verdict/round_screen_confirm.ts";

// The procedure's worked examples through decideRound are in tests/verdict/round_test.ts and
// tests/verdict/crashed_test.ts; these call the module's own entries.

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

describe("planScreenConfirm()", () => {
  it("a round of one goes straight to confirmation on repeats pairs", () => {
    assert.deepEqual(planScreenConfirm(contract({ repeats: 5, max_repeats: 10 }), 1), {
      kind: "more",
      pairs: 5,
      firstPair: 1,
      arms: [1],
      stage: "confirm",
      fresh: false,
    });
  });

  it("a round of k screens every candidate on the first ⌈repeats/2⌉ pairs", () => {
    assert.deepEqual(planScreenConfirm(contract({ repeats: 5, max_repeats: 10 }), 3), {
      kind: "more",
      pairs: 3,
      firstPair: 1,
      arms: [1, 2, 3],
      stage: "screen",
      fresh: false,
    });
  });
});

describe("decideScreenConfirm()", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });
  // pairs 1–2 (the screen's first part): means 4.5, 2.5, −0.5, se 0.5 (worked in round_test.ts)
  const screen = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13, 22], "candidate-3": [9, 20] };

  it("drops the candidates that cannot win and sends the leader alone to fresh pairs", () => {
    const d = decideScreenConfirm(c, 3, screen, {});
    assert.equal(d.procedure, "screen-confirm");
    assert.deepEqual(d.calls.map((x) => [x.arm, x.standing, x.because]), [
      [1, "in-play", null],
      [2, "dropped", "behind"],
      [3, "dropped", "hopeless"],
    ]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [1], stage: "confirm", fresh: true });
    assert.equal(d.winner, null);
  });

  it("a round of one is decideLook on all its pairs", () => {
    const values = { baseline: [10, 11, 12, 13], candidate: [13, 15, 14, 16] };
    const d = decideScreenConfirm(c, 1, values, {});
    const look = decideLook(c, values);
    assert.equal(d.verdict, look.verdict);
    assert.deepEqual(d.reasons, look.reasons);
    assert.deepEqual(d.calls[0]!.estimate, look.benchmark);
  });

  it("refuses values that are not at a look of the round", () => {
    assert.throws(
      () => decideScreenConfirm(c, 3, { baseline: [10], candidate: [14], "candidate-2": [13], "candidate-3": [9] }, {}),
      /Cannot decide a round at 1 pairs: its screen measures 2 pairs of every candidate first/,
    );
  });
});

describe("decideScreenConfirmWithCrashes()", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });

  it("a crashed arm is dropped at once with verdict crashed; the rest screen without it", () => {
    const values = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [], "candidate-3": [9, 20] };
    const d = decideScreenConfirmWithCrashes(c, 3, values, {}, new Map([[2, { pair: 1, cause: "exit 1" }]]));
    assert.deepEqual(d.calls.map((x) => [x.arm, x.standing, x.because, x.verdict]), [
      [1, "in-play", null, "inconclusive"],
      [2, "dropped", "crashed", "crashed"],
      [3, "dropped", "hopeless", "inconclusive"],
    ]);
  });

  it("refuses a crashed arm outside the round", () => {
    assert.throws(
      () => decideScreenConfirmWithCrashes(c, 2, { baseline: [10, 20] }, {}, new Map([[5, { pair: 1, cause: "x" }]])),
      /A crashed arm is one of 1\.\.2 with a pair >= 1, got arm 5/,
    );
  });
});
