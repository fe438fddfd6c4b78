import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pairing } from "../../src/contract/contract.ts";
import type { CalibrationRecord } from "../../src/rundir/calibration_file.ts";
import { comparePairings } from "../../src/evaluation/pairing_choice.ts";

/** A calibration whose power table finds `found` at 10 pairs, from a spread `sd`. */
const cal = (sd: number, found: number): CalibrationRecord =>
  ({
    n: 10,
    sd,
    detectable: [{ pairs: 3, effect: 9 * found }, { pairs: 10, effect: found }, { pairs: 30, effect: found / 2 }],
    suggestion: { minEffect: found, repeats: 4, maxRepeats: 12 },
  }) as unknown as CalibrationRecord;
const of = (...xs: [Pairing, number, number][]) =>
  xs.map(([pairing, sd, found]) => ({ pairing, calibration: cal(sd, found) }));

describe("comparePairings()", () => {
  it("recommends the pairing that finds the smallest improvement at 10 pairs", () => {
    const c = comparePairings(of(["separate", 10, 10], ["same-job", 1, 1], ["duet", 2, 2]));
    assert.equal(c.recommended, "same-job");
    assert.match(c.reason, /^same-job finds the smallest improvement at 10 pairs \(1 beyond min_effect/);
  });

  it("prefers a cheaper pairing within 10% of the best", () => {
    assert.equal(comparePairings(of(["separate", 1.05, 1.05], ["same-job", 1, 1])).recommended, "separate");
    assert.equal(comparePairings(of(["separate", 1.2, 1.2], ["same-job", 1, 1])).recommended, "same-job");
    assert.equal(comparePairings(of(["duet", 0.95, 0.95], ["same-job", 1, 1])).recommended, "same-job");
  });

  it("gives the share of separate's variance that measuring apart adds", () => {
    const c = comparePairings(of(["same-job", 1, 1], ["separate", 2, 2]));
    assert.equal(c.nodeShare, 0.75);
    assert.deepEqual(c.rows.map((r) => r.pairing), ["separate", "same-job"], "cheapest first");
    assert.equal(comparePairings(of(["same-job", 3, 3], ["separate", 2, 2])).nodeShare, 0);
    assert.equal(comparePairings(of(["same-job", 1, 1])).nodeShare, null);
  });
});
