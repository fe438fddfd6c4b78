import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cutToDomain, focusExtent, SOFT_REACH } from "../../src/report/axis_focus.ts";

describe("focusExtent()", () => {
  it("covers the core values in full and reaches for the soft ones only SOFT_REACH of the core's span", () => {
    // winners +0.04 and +0.09, min_effect 0.02, zero; a dropped arm's screen interval ±14
    const [low, high] = focusExtent([0, 0.02, 0.04, 0.09], [-14, 14]);
    assert.ok(Math.abs(low! - -0.09 * SOFT_REACH) < 1e-12 && Math.abs(high! - 0.09 * (1 + SOFT_REACH)) < 1e-12);
  });

  it("takes in soft values that lie within reach, and needs no soft ones", () => {
    assert.deepEqual(focusExtent([0, 1], [-0.1, 1.2]), [-0.1, 1.2]);
    assert.deepEqual(focusExtent([0, 1], []), [0, 1]);
  });

  it("keeps a width for one core value, falls back to the soft extent, and ignores what is not finite", () => {
    assert.deepEqual(focusExtent([2], [100]), [2, 2.5]);
    assert.deepEqual(focusExtent([], [3, -1]), [-1, 3]);
    assert.deepEqual(focusExtent([Number.NaN], [Number.POSITIVE_INFINITY]), []);
  });
});

describe("cutToDomain()", () => {
  it("keeps an interval inside the axis and says which end was cut", () => {
    assert.deepEqual(cutToDomain(-14, 0.5, [-1, 1]), { lower: -1, upper: 0.5, lowerCut: true, upperCut: false });
    assert.deepEqual(cutToDomain(-0.5, 14, [-1, 1]), { lower: -0.5, upper: 1, lowerCut: false, upperCut: true });
    assert.deepEqual(cutToDomain(-0.5, 0.5, [-1, 1]), { lower: -0.5, upper: 0.5, lowerCut: false, upperCut: false });
  });
});
