import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { STUDENT_T } from "../../src/stats/location_interval.ts";
import { methodNamed, REPEATED_METHOD } from "../../src/stats/repeated_method.ts";

describe("methodNamed()", () => {
  it("reads the repeated method back from the words a decision stored", () => {
    assert.equal(methodNamed(`group-sequential paired ${REPEATED_METHOD.name}, look 1 of 3`), REPEATED_METHOD);
  });

  it("checks a decision from before it by Student t", () => {
    assert.equal(methodNamed("group-sequential paired Student t, look 2 of 3"), STUDENT_T);
    assert.notEqual(REPEATED_METHOD, STUDENT_T);
  });
});
