import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { runPlan } from "../../src/plan/run_plan.ts";
import { formatCalibration } from "../../src/report/calibration_table.ts";
import { readCalibration, writeCalibration } from "../../src/rundir/calibration_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { calibrationOf } from "../../src/evaluation/calibration.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/** The record the old file below was calibrated for: `toy` minimized, sibling `tsp`, 3 pairs. */
const RECORD = runRecordFixture({ kind: "calibrate", candidateSha: "a".repeat(40) }, {
  repeats: 3,
  max_repeats: 3,
  direction: "minimize",
  siblings: [{ name: "tsp", command: "x", metric: "cost", direction: "minimize", tolerance: 0.5 }],
});

/** calibration.json as the code before sibling tolerances wrote it for RECORD (its keys, verbatim). */
const OLD_FILE = {
  base_sha: "a".repeat(40),
  run_identity: "03ae3c8c2bce6d50ac04380e5c9a8a6df8fd0e1d",
  calibrated_at: "2025-01-02T03:04:05.678Z",
  benchmark: "toy",
  metric: "score",
  confidence: 0.95,
  n: 3,
  mean: 0.16666666666666669,
  lower: -1.2675509099164874,
  upper: 1.600884243249821,
  sd: 0.5773502691896258,
  biased: false,
  detectable: [
    { pairs: 1, effect: 0.4859102457590264 },
    { pairs: 3, effect: 1.8844963583545449 },
    { pairs: 5, effect: 0.9711016167044715 },
    { pairs: 10, effect: 0.5750421696376048 },
    { pairs: 20, effect: 0.38130660309305503 },
  ],
  suggestion: { min_effect: 1.7, repeats: 5, max_repeats: 14 },
  seeds: [9, 631659301, 1715535439],
  values: {
    baseline: 10,
    candidate: 10.5,
    "sib-tsp-base": 11,
    "sib-tsp-cand": 10.75,
    "baseline#2": 9,
    "candidate#2": 9.5,
    "sib-tsp-base#2": 5,
    "sib-tsp-cand#2": 5.25,
    "baseline#3": 6,
    "candidate#3": 5.5,
    "sib-tsp-base#3": 4,
    "sib-tsp-cand#3": 4.5,
  },
  differences: [0.5, 0.5, -0.5],
};

function runDir(): RunDir {
  return new RunDir(tempDir("calibration-file-"));
}

describe("readCalibration()", () => {
  it("reads a calibration.json written before siblings and derivations were recorded", () => {
    const dir = runDir();
    writeFileSync(dir.calibration, JSON.stringify(OLD_FILE));
    const c = readCalibration(dir, RECORD)!;
    assert.equal(c.direction, "minimize", "from the run record");
    // the old mean and interval were of the difference: minimized, the improvement is its negative
    assert.deepEqual([c.mean, c.lower, c.upper], [-OLD_FILE.mean, -OLD_FILE.upper, -OLD_FILE.lower]);
    assert.deepEqual(c.suggestion, { minEffect: 1.7, repeats: 5, maxRepeats: 14, siblings: {} });
    assert.deepEqual(c.siblings, {});
    assert.equal(c.derivation, null);
    assert.deepEqual(c.differences, OLD_FILE.differences);
    const table = formatCalibration(c);
    assert.match(table, / {4}1 {2}0\.4859 .*\(one pair: no interval, no guarantee\)/);
    assert.match(table, /predates the derivation note/);
  });

  it("gives back what writeCalibration wrote, with the difference under the old keys", () => {
    const { plan, seeds } = runPlan(RECORD).all;
    const values = OLD_FILE.values as Record<string, number>;
    const c = calibrationOf(RECORD, plan, values, seeds, () => Date.parse(OLD_FILE.calibrated_at));
    const dir = runDir();
    writeCalibration(dir, c);
    assert.deepEqual(readCalibration(dir, RECORD), c);
    const j = JSON.parse(readFileSync(dir.calibration, "utf8"));
    assert.deepEqual([j.mean, j.lower, j.upper], [OLD_FILE.mean, OLD_FILE.lower, OLD_FILE.upper]);
    assert.deepEqual(j.improvement, { mean: c.mean, lower: c.lower, upper: c.upper });
    assert.equal(j.direction, "minimize");
    assert.deepEqual(Object.keys(j.siblings), ["tsp"]);
    assert.deepEqual(j.suggestion.siblings, { tsp: { tolerance: c.suggestion.siblings["tsp"]!.tolerance } });
    assert.equal(typeof j.derivation, "string");
    // the calibrated fence's noise (issue 31): the improvements' sd, rounded up, over the 3 pairs
    assert.deepEqual(j.suggestion.noise, { sd: 0.58, pairs: 3 });
    assert.deepEqual(c.suggestion.noise, { sd: 0.58, pairs: 3 });
    assert.match(j.derivation, /noise sd 0\.58 over 3 pairs: the sd of the A\/A pairs \(none set aside/);
  });
});
