import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mergeSha, roundStanding, roundStandingJson } from "../../src/evaluation/round_standing.ts";
import type { RunSnapshot } from "../../src/evaluation/snapshot.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import type { DecisionRecord, RoundFacts } from "../../src/rundir/decision_file.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const SHAS = ["b", "c", "d"].map((c) => c.repeat(40));
// repeats 4, max_repeats 8: the screen's first part is pairs 1–2 of every candidate
const record = runRecordFixture(
  { candidates: SHAS.map((sha, i) => ({ ref: `c${i + 1}`, sha })) },
  { repeats: 4, max_repeats: 8, min_effect: 1 },
);

/** The parts of a snapshot roundStanding reads: the record, its plan, the results on disk, the crashes. */
function snapshot(values: Record<string, number>): RunSnapshot {
  return { record, plan: runPlan(record), results: { values }, crashes: [] } as unknown as RunSnapshot;
}

// pairs 1–2: improvements 4.5, 2.5 and −0.5 on average (worked in tests/verdict/round_test.ts): candidate 1 alone goes on
const SCREEN = {
  baseline: 10,
  "baseline#2": 20,
  candidate: 14,
  "candidate#2": 25,
  "candidate-2": 13,
  "candidate-2#2": 22,
  "candidate-3": 9,
  "candidate-3#2": 20,
};

describe("roundStanding() of an open round", () => {
  it("before any batch is complete: every candidate in play on the screen's first batch", () => {
    const s = roundStanding(snapshot({}), null);
    assert.equal(s.open, true);
    assert.deepEqual(s.next, { stage: "screen", firstPair: 1, lastPair: 2, arms: [1, 2, 3] });
    assert.deepEqual(s.facts.candidates.map((c) => [c.ref, c.standing, c.verdict, c.pairs]), [
      ["c1", "in-play", "inconclusive", 0],
      ["c2", "in-play", "inconclusive", 0],
      ["c3", "in-play", "inconclusive", 0],
    ]);
    assert.equal(s.facts.winner, null);
  });

  it("after the screen: what its complete batches decide, and the batch measured now", () => {
    const s = roundStanding(snapshot(SCREEN), null);
    assert.equal(s.facts.n, 2);
    assert.deepEqual(s.facts.candidates.map((c) => [c.arm, c.standing, c.because]), [
      [1, "in-play", null],
      [2, "dropped", "behind"],
      [3, "dropped", "hopeless"],
    ]);
    assert.deepEqual(s.next, { stage: "confirm", firstPair: 3, lastPair: 6, arms: [1] });
    assert.equal(s.values["candidate-3"], 9);
  });
});

describe("roundStanding() of a decided round", () => {
  it("is its decision's, with nothing more to measure", () => {
    const facts = { procedure: "screen-confirm", seeds: [1], n: 1, winner: null, candidates: [] } as RoundFacts;
    const s = roundStanding(snapshot(SCREEN), { round: facts, values: { baseline: 1 } } as unknown as DecisionRecord);
    assert.deepEqual(s, { facts, open: false, next: null, values: { baseline: 1 } });
  });
});

describe("mergeSha()", () => {
  it("a single candidate's sha; a round's winner's, null without one", () => {
    assert.equal(mergeSha(runRecordFixture(), null), "b".repeat(40));
    assert.equal(mergeSha(record, null), null);
    const won = { candidateSha: SHAS[2], round: { winner: { sha: SHAS[2] } } } as unknown as DecisionRecord;
    assert.equal(mergeSha(record, won), SHAS[2]);
  });
});

describe("roundStandingJson()", () => {
  it("names each candidate's measure and gives the batch now in snake_case", () => {
    const json = roundStandingJson(roundStanding(snapshot(SCREEN), null)) as {
      open: boolean;
      candidates: { arm: number; measure: string }[];
      next: unknown;
    };
    assert.equal(json.open, true);
    assert.deepEqual(json.candidates.map((c) => [c.arm, c.measure]), [[1, "candidate"], [2, "candidate-2"], [
      3,
      "candidate-3",
    ]]);
    assert.deepEqual(json.next, { stage: "confirm", first_pair: 3, last_pair: 6, arms: [1] });
  });
});
