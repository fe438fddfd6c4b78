import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import type { PairedValues } from "../../src/verdict/decide.ts";
import { planScreenConfirm } from "../../src/verdict/round_screen_confirm.ts";
import { decideSimultaneous, planSimultaneous } from "../../src/verdict/round_simultaneous.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

describe("planSimultaneous()", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });

  it("plans every candidate on the contract's first look", () => {
    assert.deepEqual(planSimultaneous(c, 3), {
      kind: "more",
      pairs: 4,
      firstPair: 1,
      arms: [1, 2, 3],
      stage: "simultaneous",
      fresh: false,
    });
  });

  it("a round of one plans as a single run does", () => {
    assert.deepEqual(planSimultaneous(c, 1), planScreenConfirm(c, 1));
  });
});

describe("decideSimultaneous()", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });
  // candidate 1: improvements 10, 10, 10, 11 (clear); candidate 2: 0, 1, −1, 0 (nothing)
  const clear: PairedValues = {
    baseline: [10, 20, 30, 40],
    candidate: [20, 30, 40, 51],
    "candidate-2": [10, 21, 29, 40],
  };

  for (const family of ["bonferroni", "dunnett"] as const) {
    it(`${family}: accepts the clear winner at the first look with a simultaneous interval`, () => {
      const d = decideSimultaneous(c, 2, clear, family, {});
      assert.equal(d.procedure, family);
      assert.equal(d.verdict, "accept");
      assert.deepEqual(d.winner && [d.winner.arm, d.winner.firstPair, d.winner.lastPair], [1, 1, 4]);
      assert.ok(d.winner!.estimate.confidence > 0.975, "wider than one look's level");
      assert.equal(d.next.kind, "final");
    });
  }

  it("names the better of two accepted candidates the winner and drops the other", () => {
    // improvements: candidate 1 +3, +2, +3, +2; candidate 2 +2, +3, +1, +2
    const values: PairedValues = {
      baseline: [10, 20, 30, 40],
      candidate: [13, 22, 33, 42],
      "candidate-2": [12, 23, 31, 42],
    };
    const d = decideSimultaneous(c, 2, values, "dunnett", {});
    assert.equal(d.winner?.arm, 1);
    assert.deepEqual(d.calls.map((x) => [x.arm, x.because, x.standing]), [
      [1, "accepted", "decided"],
      [2, "another-won", "dropped"],
    ]);
  });

  it("refuses a relative min_effect: the procedures take absolute thresholds only", () => {
    const rel = contract({ min_effect: "2%", repeats: 4, max_repeats: 8 });
    assert.throws(() => decideSimultaneous(rel, 2, clear, "bonferroni", {}), /absolute thresholds/);
  });
});
