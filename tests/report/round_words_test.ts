import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RoundSummary } from "../../src/report/round_model.ts";
import { roundSentence, roundVerdictWords, roundWhat, winnerOf } from "../../src/report/round_words.ts";
import { roundSummaryRun } from "../helpers/report_fixtures.ts";

const run = roundSummaryRun();
const round = run.round!;

describe("roundWhat(), winnerOf() and roundVerdictWords()", () => {
  it("say what the round is, find its winner and give its verdict with it", () => {
    assert.equal(roundWhat(round), "3 candidates");
    assert.equal(winnerOf(round)?.measure, "candidate-2");
    assert.equal(roundVerdictWords(run), "accept: winner candidate-2");
    assert.equal(roundVerdictWords({ ...run, verdict: null }), "");
  });
});

describe("roundSentence()", () => {
  it("names the winner, its improvement and the fresh pairs it rests on", () => {
    assert.match(
      roundSentence(round),
      /^winner: candidate-2 \(c2, 1{10}\), improvement \(positive = better\) \+1\.9 .*, fresh pairs that did not choose it$/,
    );
  });

  it("says why there is no winner", () => {
    const noWin = (arms: RoundSummary["arms"]) => roundSentence({ ...round, winner: null, arms });
    assert.equal(
      noWin(round.arms.map((a) => ({ ...a, winner: false, verdict: "reject" }))),
      "no winner: every candidate was rejected",
    );
    assert.match(
      noWin(
        round.arms.map((a) => a.arm === 2 ? { ...a, winner: false, verdict: "inconclusive", because: "futile" } : a),
      ),
      /^no winner: candidate-2 \(c2, 1{10}\), the screen's choice, was not accepted on its confirmation \(inconclusive: stopped for futility, /,
    );
    assert.equal(
      noWin(round.arms.map((a) => ({ ...a, winner: false, confirmation: null, verdict: "inconclusive" }))),
      "no winner: the screen dropped every candidate (none could still win)",
    );
  });

  it("while open: the pairs complete, who is in play and the batch measured now", () => {
    const open: RoundSummary = {
      ...round,
      open: true,
      winner: null,
      n: 2,
      arms: round.arms.map((a) => ({ ...a, winner: false, standing: a.arm === 2 ? "in-play" : "dropped" })),
      next: { stage: "confirm", firstPair: 3, lastPair: 6, arms: [2] },
    };
    assert.equal(
      roundSentence(open),
      "open: 2 pairs complete; in play: candidate-2; confirming candidate-2 on pairs 3–6",
    );
    assert.equal(
      roundSentence({ ...open, n: 0, next: null }),
      "open: no batch complete yet, every pair measured; not decided yet",
    );
  });
});
