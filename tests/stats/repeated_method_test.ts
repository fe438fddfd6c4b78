import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import { methodNamed, REPEATED_METHOD } from "../../src/stats/repeated_method.ts";
import { HAMPEL_SCREENED_T } from "../../src/stats/screened_t.ts";
import { calibratedT } from "../../src/stats/calibrated_screen.ts";

describe("methodNamed()", () => {
  it("reads the repeated method back from the words a decision stored", () => {
    const words = `group-sequential paired ${REPEATED_METHOD.name} (${REPEATED_METHOD.detail}), look 1 of 3`;
    assert.equal(methodNamed(words), REPEATED_METHOD);
  });

  it("checks a screened decision from before the ESD test by the Hampel rule it was made by", () => {
    const words = "group-sequential paired screened Student t (outlying pairs set aside from 6 pairs on), look 1 of 3";
    assert.equal(methodNamed(words), HAMPEL_SCREENED_T);
    assert.notEqual(HAMPEL_SCREENED_T, REPEATED_METHOD);
  });

  it("reads the calibrated fence's words back as the repeated method (its scale is the contract's)", () => {
    const words = `group-sequential paired screened Student t (${
      calibratedT({ sd: 0.4, pairs: 20 }).detail
    }), look 1 of 3`;
    assert.equal(methodNamed(words), REPEATED_METHOD);
  });

  it("checks a decision from before the screen by Student t", () => {
    assert.equal(methodNamed("group-sequential paired Student t, look 2 of 3"), STUDENT_T);
    assert.notEqual(REPEATED_METHOD, STUDENT_T);
  });
});
