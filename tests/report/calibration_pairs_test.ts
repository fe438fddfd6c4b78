import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  aaInterval,
  aaPairs,
  calibrationCells,
  signedStat,
  suggestedKeys,
} from "../../src/report/calibration_pairs.ts";
import { calibrationRun } from "../helpers/report_fixtures.ts";

describe("aaPairs()", () => {
  it("gives each A/A pair its seed, both measures and the second's improvement over the first in the direction", () => {
    const c = calibrationRun().calibration!;
    const pairs = aaPairs(c);
    assert.equal(pairs.length, 6);
    assert.deepEqual(pairs[1], {
      pair: 2,
      seed: 12,
      first: c.values["baseline#2"],
      second: c.values["candidate#2"],
      improvement: -c.differences[1]!, // minimize: a lower second measure is an improvement
    });
    const mirrored = aaPairs({ ...c, direction: "maximize" });
    assert.deepEqual(mirrored.map((p) => p.improvement), c.differences);
  });
});

describe("calibrationCells()", () => {
  it("says the sd and the suggested min_effect, and gives the A/A mean, interval and pairs", () => {
    const c = calibrationRun().calibration!;
    assert.deepEqual(calibrationCells(c), {
      words: "sd 0.0089, suggests min_effect 0.03",
      mean: signedStat(c.mean),
      interval: `A/A ${aaInterval(c)}`,
      n: "6",
    });
    assert.match(aaInterval(c), /^\[-0\.\d+, \+0\.\d+\] 95%$/);
  });

  it("puts biased first when the A/A interval excludes 0, and is empty without a calibration", () => {
    assert.match(calibrationCells(calibrationRun(true).calibration).words, /^biased: sd /);
    assert.deepEqual(calibrationCells(null), { words: "", mean: "", interval: "", n: "" });
  });
});

describe("suggestedKeys()", () => {
  it("gives the keys to paste, the calibrated noise among them when the calibration found one", () => {
    const c = calibrationRun().calibration!;
    assert.equal(suggestedKeys(c), '{"min_effect":0.03,"repeats":4,"max_repeats":12}');
    const withNoise = { ...c, suggestion: { ...c.suggestion, noise: { sd: 0.0089, pairs: 6 } } };
    assert.equal(
      suggestedKeys(withNoise),
      '{"min_effect":0.03,"repeats":4,"max_repeats":12,"noise":{"sd":0.0089,"pairs":6}}',
    );
  });
});
