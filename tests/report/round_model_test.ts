import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  becauseWords,
  pairRange,
  type RoundArm,
  shownEstimate,
  shownStage,
  standingWords,
} from "../../src/report/round_model.ts";
import { roundSummaryRun } from "../helpers/report_fixtures.ts";

// the fixture's arms: candidate dropped at pair 2 (hopeless), candidate-2 the winner, candidate-3 dropped (rejected)
const [dropped, winner] = roundSummaryRun().round!.arms as [RoundArm, RoundArm, RoundArm];

describe("shownEstimate() and shownStage()", () => {
  it("show the confirmation's estimate when there is one, else the screen's, else none", () => {
    assert.equal(shownEstimate(winner), winner.confirmation);
    assert.equal(shownStage(winner), "confirmation");
    assert.equal(shownEstimate(dropped), dropped.screen);
    assert.equal(shownStage(dropped), "screen");
    const none = { ...dropped, screen: null };
    assert.equal(shownEstimate(none), null);
    assert.equal(shownStage(none), "");
  });
});

describe("becauseWords()", () => {
  it("says the decision's word for people; an unknown word as it is; nothing for none", () => {
    assert.equal(becauseWords("hopeless"), "below min_effect");
    assert.equal(becauseWords("another-won"), "another candidate won");
    assert.equal(becauseWords("new-word"), "new-word");
    assert.equal(becauseWords(null), "");
  });
});

describe("standingWords()", () => {
  it("winner, in play, dropped at a pair with why, crashed at the pair after its last, decided with why", () => {
    assert.equal(
      standingWords(winner),
      "decided: winner",
      "its standing is decided, as --json says, with winner: true",
    );
    assert.equal(standingWords({ ...dropped, standing: "in-play" }), "in play");
    assert.equal(standingWords(dropped), "dropped at pair 2: below min_effect");
    assert.equal(standingWords({ ...dropped, because: null }), "dropped at pair 2");
    assert.equal(standingWords({ ...dropped, verdict: "crashed", pairs: 1 }), "crashed at pair 2");
    assert.equal(standingWords({ ...winner, winner: false, because: "futile" }), "decided: stopped for futility");
  });
});

describe("pairRange()", () => {
  it("one pair or a range", () => {
    assert.equal(pairRange(2, 2), "pair 2");
    assert.equal(pairRange(1, 4), "pairs 1–4");
  });
});
