import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decidedRoundStanding, roundStanding } from "../../src/evaluation/round_standing.ts";
import type { RunSnapshot } from "../../src/evaluation/snapshot.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import type { RoundFacts } from "../../src/rundir/decision_file.ts";
import { roundSummary } from "../../src/views/round_view.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const record = runRecordFixture(
  { candidates: ["b", "c", "d"].map((c, i) => ({ ref: `c${i + 1}`, sha: c.repeat(40) })) },
  { repeats: 4, max_repeats: 8, min_effect: 1, direction: "minimize" },
);
// pairs 1–2 (the screen's first part), minimizing: candidate 1 is fastest by far, candidate 3 slower
const SCREEN = {
  baseline: 20,
  "baseline#2": 30,
  candidate: 15,
  "candidate#2": 26,
  "candidate-2": 18,
  "candidate-2#2": 28,
  "candidate-3": 21,
  "candidate-3#2": 30,
};
const snapshot = { record, plan: runPlan(record), results: { values: SCREEN }, crashes: [] } as unknown as RunSnapshot;

describe("roundSummary() of an open round", () => {
  const s = roundSummary(record, roundStanding(snapshot, null));

  it("keeps the round's shape: its base, pairs complete and the batch measured now", () => {
    assert.deepEqual([s.baseRef, s.open, s.n, s.winner], ["main~1", true, 2, null]);
    assert.deepEqual(s.next, { stage: "confirm", firstPair: 3, lastPair: 6, arms: [1] });
    assert.deepEqual(s.arms.map((a) => [a.measure, a.ref, a.standing]), [
      ["candidate", "c1", "in-play"],
      ["candidate-2", "c2", "dropped"],
      ["candidate-3", "c3", "dropped"],
    ]);
  });

  it("gives a candidate in play no verdict yet, and a dropped one its own", () => {
    assert.deepEqual([s.arms[0]!.verdict, s.arms[0]!.because], [null, null]);
    assert.notEqual(s.arms[2]!.verdict, null);
    assert.notEqual(s.arms[2]!.because, null);
  });

  it("gives each screen estimate its pairs, both sides' means and the difference through the direction", () => {
    const e = s.arms[0]!.screen!;
    assert.deepEqual([e.firstPair, e.lastPair, e.baseline, e.candidate], [1, 2, 25, 20.5]);
    assert.equal(e.estimate.mean, 4.5);
    assert.equal(e.difference, -4.5, "minimizing: an improvement of 4.5 is a difference of −4.5");
    assert.equal(s.arms[0]!.confirmation, null);
  });
});

describe("roundSummary() of a decided round", () => {
  it("names the winner and renumbers its confirmation's set-aside pairs in the round's pairs", () => {
    const est = (n: number, setAside: number[]) => ({
      n,
      mean: 2,
      lower: 1,
      upper: 3,
      confidence: 0.975,
      method: "m",
      setAside,
    });
    const facts = {
      procedure: "screen-confirm",
      seeds: [],
      n: 6,
      winner: { arm: 1, ref: "c1", sha: "b".repeat(40), firstPair: 3, lastPair: 6, estimate: est(4, [2]) },
      candidates: [{
        arm: 1,
        ref: "c1",
        sha: "b".repeat(40),
        verdict: "accept",
        standing: "decided",
        because: "accepted",
        pairs: 6,
        screen: est(2, []),
        estimate: est(4, [2]),
        siblings: {},
        reason: "",
      }],
    } as unknown as RoundFacts;
    const s = roundSummary(record, decidedRoundStanding(facts, SCREEN));
    const a = s.arms[0]!;
    assert.deepEqual([s.open, s.winner, a.winner, a.verdict], [false, 1, true, "accept"]);
    assert.deepEqual([a.confirmation!.firstPair, a.confirmation!.lastPair, a.confirmation!.estimate.setAside], [
      3,
      6,
      [4],
    ]);
    assert.equal(a.confirmation!.baseline, null, "pairs 3–6 are not among the values: no mean");
  });
});
