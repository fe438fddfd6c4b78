import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setAsideReason } from "../../src/verdict/set_aside_reason.ts";
import { calibratedT } from "../../src/stats/calibrated_screen.ts";
import { HAMPEL_SCREENED_T, SCREENED_T } from "../../src/stats/screened_t.ts";

const words = (detail: string | undefined) =>
  `group-sequential paired screened Student t (${detail}), look 2 of 3, alpha 0.05 split over the looks`;

describe("setAsideReason()", () => {
  it("reads why from the method a decision names: the ESD test, the calibrated fence with its scale, the Hampel rule", () => {
    assert.equal(setAsideReason(words(SCREENED_T.detail)), "outlying by the generalized ESD test");
    assert.equal(
      setAsideReason(words(calibratedT({ sd: 0.71, pairs: 20 }).detail)),
      "beyond the fence of the calibrated noise (sd 0.71 over 20 A/A pairs)",
    );
    assert.equal(setAsideReason(words(HAMPEL_SCREENED_T.detail)), "outlying by the Hampel rule");
  });
});
