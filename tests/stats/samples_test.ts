import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleSpread, summarize } from "../../src/stats/samples.ts";

describe("summarize()", () => {
  it("takes the median (the middle one, or the mean of the middle two), the minimum or the mean", () => {
    assert.equal(summarize([12.1, 11.9, 30.2], "median"), 12.1);
    assert.equal(summarize([4, 1, 2, 5], "median"), 3);
    assert.equal(summarize([4, 1, 2, 5], "min"), 1);
    assert.equal(summarize([4, 1, 2, 6], "mean"), 3.25);
  });

  it("gives equal samples exactly their value, and does not overflow on large ones", () => {
    assert.equal(summarize([0.1, 0.1, 0.1], "mean"), 0.1);
    assert.equal(summarize([0.1, 0.1], "median"), 0.1);
    assert.equal(summarize([1.7e308, 1.7e308], "mean"), 1.7e308);
    assert.equal(summarize([1.7e308, 1.7e308], "median"), 1.7e308);
  });

  it("refuses no samples (a caller bug)", () => {
    assert.throws(() => summarize([], "median"), RangeError);
    assert.throws(() => sampleSpread([]), RangeError);
  });
});

describe("sampleSpread()", () => {
  it("gives how many, the smallest, the median and the largest", () => {
    assert.deepEqual(sampleSpread([12.1, 11.9, 30.2]), { n: 3, min: 11.9, median: 12.1, max: 30.2 });
    assert.deepEqual(sampleSpread([7]), { n: 1, min: 7, median: 7, max: 7 });
  });
});
