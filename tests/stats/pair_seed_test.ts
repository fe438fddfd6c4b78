import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pairSeed, pairSeeds } from "../../src/stats/pair_seed.ts";

describe("pairSeed()", () => {
  it("keeps the run's seed for pair 1, so a one-pair run measures what it always did", () => {
    assert.equal(pairSeed(42, 1), 42);
    assert.equal(pairSeed(2 ** 31 - 1, 1), 2 ** 31 - 1);
  });

  it("gives 0 (no seed) for every pair of a run without a seed", () => {
    for (const pair of [1, 2, 9]) assert.equal(pairSeed(0, pair), 0);
  });

  it("derives later pairs from sha256 of (run seed, pair), as Python's hashlib computes them", () => {
    // int.from_bytes(sha256(f"outerloop pair seed\0{run}\0{pair}\0{0}".encode()).digest()[:4], "big") % (2**31-1) + 1
    assert.equal(pairSeed(42, 2), 1531994129);
    assert.equal(pairSeed(42, 3), 302822565);
    assert.equal(pairSeed(2 ** 31 - 1, 2), 343654476);
  });

  it("gives every pair a distinct seed in [1, 2^31 − 1], the same on every call", () => {
    for (const run of [1, 7, 123456789]) {
      const seeds = Array.from({ length: 200 }, (_, i) => pairSeed(run, i + 1));
      assert.equal(new Set(seeds).size, 200);
      for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 1 && s <= 2 ** 31 - 1, String(s));
      assert.deepEqual(seeds, Array.from({ length: 200 }, (_, i) => pairSeed(run, i + 1)));
    }
  });

  it("refuses a seed outside [0, 2^31 − 1] and a pair below 1", () => {
    assert.throws(() => pairSeed(-1, 1), RangeError);
    assert.throws(() => pairSeed(2 ** 31, 1), RangeError);
    assert.throws(() => pairSeed(5, 0), RangeError);
  });
});

describe("pairSeeds()", () => {
  it("gives each pair's pairSeed in one walk, none for no pairs", () => {
    for (const run of [0, 42, 123456789]) {
      assert.deepEqual(pairSeeds(run, 30), Array.from({ length: 30 }, (_, i) => pairSeed(run, i + 1)));
      assert.deepEqual(pairSeeds(run, 0), []);
    }
    assert.throws(() => pairSeeds(-1, 3), RangeError);
  });
});
