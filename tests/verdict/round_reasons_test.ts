import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import type { Screen } from "../../src/stats/round_screen.ts";
import {
  candidateName,
  capitalized,
  confirmReason,
  guaranteeClause,
  nextConfirmReason,
  nextScreenReason,
  pairRange,
  roundReason,
  screenCallReason,
  screenReason,
} from "../../src/verdict/round_reasons.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

const RULES = { reach: 1, hope: 1 };
// the worked screen of tests/verdict/round_test.ts: candidate 1 leads, 2 is behind, 3 hopeless
const SCREEN: Screen = {
  sd: 0.7071,
  df: 3,
  se: 0.5,
  leader: 1,
  calls: [
    { arm: 1, n: 2, mean: 4.5, dropped: null },
    { arm: 2, n: 2, mean: 2.5, dropped: "behind" },
    { arm: 3, n: 2, mean: -0.5, dropped: "hopeless" },
  ],
};

describe("the small words", () => {
  it("names candidates and pair ranges", () => {
    assert.equal(candidateName(3), "candidate 3");
    assert.equal(capitalized(candidateName(3)), "Candidate 3");
    assert.equal(pairRange(3, 6), "pairs 3–6");
    assert.equal(pairRange(3, 3), "pair 3");
  });

  it("states the guarantee with the contract's numbers", () => {
    assert.equal(
      guaranteeClause(contract({ min_effect: 1 })),
      "the chance that a round names a winner that does not improve by more than min_effect 1 is at most 2.5%, " +
        "whatever the true effects",
    );
    assert.match(roundReason(contract({ min_effect: 1 }), 3), /^A round of 3 candidates against one baseline, /);
  });
});

describe("screenReason()", () => {
  it("says who leads, who was dropped and why", () => {
    assert.equal(
      screenReason(contract({ min_effect: 1 }), SCREEN, 1, 2, RULES, new Map()),
      "Screen on pairs 1–2 of candidates 1, 2 and 3 (pooled sd 0.7071, se 0.5 per mean): candidate 1 leads with a " +
        "mean improvement of 4.5; dropped: candidate 2 (mean 2.5, more than 1 se (0.5) behind the leader), " +
        "candidate 3 (mean -0.5, at or below min_effect 1 less 1 se (0.5)).",
    );
  });

  it("names a candidate still in reach, and a round left without any", () => {
    const reach: Screen = { ...SCREEN, calls: [SCREEN.calls[0]!, { ...SCREEN.calls[1]!, dropped: null }] };
    assert.match(
      screenReason(contract({ min_effect: 1 }), reach, 1, 2, RULES, new Map()),
      /still in reach of it: candidate 2 \(2\.5\)\.$/,
    );
    const none: Screen = { ...SCREEN, leader: null, calls: SCREEN.calls.map((c) => ({ ...c, dropped: "hopeless" })) };
    assert.match(
      screenReason(contract({ min_effect: 1 }), none, 1, 2, RULES, new Map()),
      /: no candidate is left, so the round ends without a winner; dropped: /,
    );
  });

  it("with one pair each there is no spread; a relative min_effect compares log ratios", () => {
    const one: Screen = { ...SCREEN, sd: null, se: null };
    assert.match(screenReason(contract({ min_effect: 1 }), one, 1, 1, RULES, new Map()), /one pair each: no spread/);
    assert.match(
      screenReason(contract({ min_effect: "2%" }), SCREEN, 1, 2, RULES, new Map()),
      /means of the log ratio, as min_effect is relative\)/,
    );
  });
});

describe("the next batch's and a confirmation's sentences", () => {
  it("says what is measured next", () => {
    assert.equal(nextScreenReason([1, 2], 3, 2), "Next: pairs 3–4 screen candidates 1 and 2.");
    assert.equal(
      nextConfirmReason(1, 3, 1),
      "Next: candidate 1 alone is measured with the baseline on 1 fresh pair (pair 3), the first batch of its " +
        "confirmation.",
    );
  });

  it("says the winner was confirmed on fresh pairs, or what it is judged on", () => {
    assert.equal(
      confirmReason(2, 2, 6, true),
      "Candidate 2 wins the round: chosen by the screen on pairs 1–2, it was confirmed on pairs 3–6 alone (fresh " +
        "seeds that did not choose it), and its interval below is theirs.",
    );
    assert.match(confirmReason(2, 2, 6, false), /^Candidate 2, chosen by the screen on pairs 1–2, is judged on/);
  });
});

describe("screenCallReason()", () => {
  it("gives the leader's, one in reach's and a dropped candidate's own sentence", () => {
    const c = contract({ min_effect: 1 });
    assert.equal(
      screenCallReason(SCREEN.calls[0]!, SCREEN, RULES, c, []),
      "Leads the screen: mean improvement 4.5 over 2 screen pairs.",
    );
    assert.match(screenCallReason({ ...SCREEN.calls[1]!, dropped: null }, SCREEN, RULES, c, []), /^In reach of/);
    assert.equal(
      screenCallReason(SCREEN.calls[1]!, SCREEN, RULES, c, []),
      "Dropped by the screen: mean improvement 2.5 over 2 screen pairs, more than 1 se (0.5) behind the leader.",
    );
  });
});
