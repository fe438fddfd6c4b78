import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  derivedArmDifferenceInterval,
  derivedDifferenceInterval,
  derivedMeans,
  derivedPairDifference,
} from "../../src/report/model_fallbacks.ts";
import { makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

describe("model_fallbacks: what the model derives while the views leave its fields unset", () => {
  it("derivedMeans(): the pairs' means; a round's winner's; without a winner the baseline's over every pair", () => {
    const m = derivedMeans(repeatRun());
    assert.ok(Math.abs(m.baseline! - 10.1) < 1e-12 && Math.abs(m.candidate! - 11) < 1e-12);
    const round = roundSummaryRun();
    const w = round.round!.arms[1]!.confirmation!;
    assert.deepEqual(derivedMeans(round), { baseline: w.baseline, candidate: w.candidate });
    const none = {
      ...round,
      round: { ...round.round!, arms: round.round!.arms.map((a) => ({ ...a, winner: false })) },
    };
    const b = derivedMeans(none);
    assert.ok(Math.abs(b.baseline! - (10.2 + 10 + 9.9 + 10.1 + 10.05 + 9.8) / 6) < 1e-12);
    assert.equal(b.candidate, null);
    assert.deepEqual(derivedMeans(makeRun({ pairs: [], values: {} })), { baseline: null, candidate: null });
  });

  it("derives difference intervals through the direction, and a pair's difference from its values", () => {
    const i = { lower: 0.5, upper: 1.5, confidence: 0.95 };
    assert.deepEqual(derivedDifferenceInterval("maximize", i), i);
    assert.deepEqual(derivedDifferenceInterval("minimize", i), { lower: -1.5, upper: -0.5, confidence: 0.95 });
    assert.equal(derivedDifferenceInterval("minimize", null), null);
    const e = roundSummaryRun().round!.arms[0]!.screen!;
    assert.deepEqual(derivedArmDifferenceInterval(e, "maximize"), { lower: -0.3, upper: 0.5, confidence: 0.95 });
    assert.equal(derivedPairDifference({ baseline: 10, candidate: 12.5 }), 2.5);
  });
});
