import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { finalLook, lookAt, lookSchedule, nextBatch, sequentialDesign } from "../../src/stats/sequential.ts";

function near(actual: number, expected: number, tol = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);
}

describe("lookSchedule()", () => {
  it("looks after every batch of repeats pairs, the last batch capped at max_repeats", () => {
    assert.deepEqual(lookSchedule(4, 12), [4, 8, 12]);
    assert.deepEqual(lookSchedule(5, 12), [5, 10, 12]);
    assert.deepEqual(lookSchedule(1, 3), [1, 2, 3]);
  });

  it("looks once when repeats equals max_repeats", () => {
    assert.deepEqual(lookSchedule(1, 1), [1]);
    assert.deepEqual(lookSchedule(3, 3), [3]);
  });

  it("refuses repeats below 1 or above max_repeats", () => {
    assert.throws(() => lookSchedule(0, 3), RangeError);
    assert.throws(() => lookSchedule(4, 3), RangeError);
    assert.throws(() => lookSchedule(1.5, 3), RangeError);
  });
});

describe("sequentialDesign()", () => {
  it("gives a single look the whole confidence, so one pair is today's rule", () => {
    assert.deepEqual(sequentialDesign(1, 1, 0.95), {
      repeats: 1,
      maxRepeats: 1,
      confidence: 0.95,
      sequential: false,
      looks: [{ index: 1, n: 1, level: 0.95 }],
    });
    assert.equal(sequentialDesign(5, 5, 0.9).looks[0]!.level, 0.9);
  });

  it("splits α equally over three equal batches with spending power 1", () => {
    const d = sequentialDesign(4, 12, 0.95, 1);
    assert.equal(d.sequential, true);
    assert.deepEqual(d.looks.map((l) => l.n), [4, 8, 12]);
    for (const l of d.looks) near(l.level!, 1 - 0.05 / 3);
  });

  it("spends α as (n/N)^ρ: 1/9, 3/9 and 5/9 of it with ρ = 2", () => {
    const d = sequentialDesign(4, 12, 0.95, 2);
    near(d.looks[0]!.level!, 1 - 0.05 / 9);
    near(d.looks[1]!.level!, 1 - 0.05 * 3 / 9);
    near(d.looks[2]!.level!, 1 - 0.05 * 5 / 9);
  });

  it("spends exactly α over the looks, whatever the batches", () => {
    for (const [r, m, rho] of [[5, 12, 1], [3, 10, 2], [1, 7, 1], [2, 9, 0.5]] as const) {
      const spent = sequentialDesign(r, m, 0.9, rho).looks.reduce((sum, l) => sum + (1 - (l.level ?? 1)), 0);
      near(spent, 0.1, 1e-12);
    }
  });

  it("gives a look at one pair no level, and rolls its share of α into the next look", () => {
    const d = sequentialDesign(1, 3, 0.95, 1);
    assert.equal(d.looks[0]!.level, null);
    near(d.looks[1]!.level!, 1 - 0.05 * 2 / 3);
    near(d.looks[2]!.level!, 1 - 0.05 / 3);
  });
});

describe("lookAt(), finalLook() and nextBatch()", () => {
  const d = sequentialDesign(5, 12, 0.95);

  it("finds the look at a scheduled pair count, and the last look", () => {
    assert.equal(lookAt(d, 10).index, 2);
    assert.equal(finalLook(d).n, 12);
  });

  it("refuses a pair count off the schedule, naming the schedule", () => {
    assert.throws(() => lookAt(d, 7), /Cannot decide at 7 pairs: this design looks at 5, 10, 12 pairs/);
  });

  it("asks for repeats more pairs, then what is left, then none", () => {
    assert.equal(nextBatch(d, 5), 5);
    assert.equal(nextBatch(d, 10), 2);
    assert.equal(nextBatch(d, 12), 0);
    assert.equal(nextBatch(sequentialDesign(1, 1, 0.95), 1), 0);
  });
});
