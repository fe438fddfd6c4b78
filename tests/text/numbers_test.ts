import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatDifference,
  formatEstimate,
  formatMeasured,
  formatNumber,
  intervalDecimals,
  MEASURED_DIGITS,
} from "../../src/text/numbers.ts";

describe("formatMeasured()", () => {
  it(`prints at most ${MEASURED_DIGITS} significant digits and no trailing zeros`, () => {
    assert.equal(formatMeasured(2.98259100001), "2.98259");
    assert.equal(formatMeasured(13.466943), "13.4669");
    assert.equal(formatMeasured(0.1 + 0.2), "0.3");
    assert.equal(formatMeasured(10), "10");
    assert.equal(formatMeasured(4e15), "4000000000000000");
    assert.equal(formatMeasured(-1e-20), "-1e-20");
  });

  it("signs a positive value when asked, and never prints -0", () => {
    assert.equal(formatMeasured(0.75, true), "+0.75");
    assert.equal(formatMeasured(-0.75, true), "-0.75");
    assert.equal(formatMeasured(0, true), "0");
    assert.equal(formatMeasured(-0), "0");
  });
});

describe("formatDifference()", () => {
  it("prints a pair's difference to the decimals its values print with", () => {
    assert.equal(formatDifference(12.4365 - 13.1453, [13.1453, 12.4365], true), "-0.7088");
    assert.equal(formatDifference(-0.708746123, [13.145312345, 12.436566222], true), "-0.7087");
    assert.equal(formatDifference(2, [10, 12], true), "+2");
    assert.equal(formatDifference(2e14, [4e15, 4.2e15]), "200000000000000");
  });
});

describe("formatEstimate()", () => {
  it("prints an estimate and its interval alike, to two significant digits of the interval's width", () => {
    assert.deepEqual(formatEstimate({ mean: 0.750275, lower: 0.66041, upper: 0.84013 }, true), {
      mean: "+0.75",
      lower: "+0.66",
      upper: "+0.84",
    });
    assert.deepEqual(formatEstimate({ mean: 8.11318, lower: 3.81960341979, upper: 12.4067677802 }), {
      mean: "8.1",
      lower: "3.8",
      upper: "12.4",
    });
    assert.deepEqual(formatEstimate({ mean: -0.7, lower: -0.74, upper: -0.66 }), {
      mean: "-0.700",
      lower: "-0.740",
      upper: "-0.660",
    });
  });

  it("keeps two significant digits of the mean when the interval is much wider than it", () => {
    assert.deepEqual(formatEstimate({ mean: 2976, lower: -172_900, upper: 178_900 }), {
      mean: "3000",
      lower: "-170000",
      upper: "180000",
    });
    assert.deepEqual(formatEstimate({ mean: 0.001234, lower: -0.52, upper: 0.51 }, true), {
      mean: "+0.0012",
      lower: "-0.5",
      upper: "+0.5",
    });
    assert.deepEqual(formatEstimate({ mean: -0.0456, lower: -12.3, upper: 11.9 }), {
      mean: "-0.046",
      lower: "-12",
      upper: "12",
    });
    // a mean of exactly zero stays "0"; a mean the interval's digits already show to two digits is unchanged
    assert.equal(formatEstimate({ mean: 0, lower: -1.5, upper: 1.5 }).mean, "0.0");
    assert.equal(formatEstimate({ mean: 8.11318, lower: 3.81960341979, upper: 12.4067677802 }).mean, "8.1");
  });

  it("reads as measured values when the interval has no width, or less than the values' own precision", () => {
    assert.deepEqual(formatEstimate({ mean: 0.75, lower: 0.75, upper: 0.75 }), {
      mean: "0.75",
      lower: "0.75",
      upper: "0.75",
    });
    assert.deepEqual(formatEstimate({ mean: 0.75, lower: 0.7499999999999999, upper: 0.7500000000000001 }), {
      mean: "0.75",
      lower: "0.75",
      upper: "0.75",
    });
    assert.equal(intervalDecimals(0, 1), null);
    assert.equal(intervalDecimals(0.0017, 13000), null);
    assert.equal(intervalDecimals(0.17, 0.84), 2);
    assert.equal(intervalDecimals(1234, 5000), -2);
  });
});

describe("formatNumber()", () => {
  it("keeps 12 significant digits: the stored sentences of a decision use it word for word", () => {
    assert.equal(formatNumber(0.1 + 0.2), "0.3");
    assert.equal(formatNumber(2.98259100001), "2.98259100001");
    assert.equal(formatNumber(12.3 - 12.1), "0.2");
  });
});
