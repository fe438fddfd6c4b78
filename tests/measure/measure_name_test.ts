import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BASE_ARM,
  CANDIDATE_ARM,
  differenceName,
  guardName,
  measureName,
  type MeasureRef,
  parseGuardName,
  parseMeasureName,
  splitPairName,
} from "../../src/measure/measure_name.ts";

describe("measureName()", () => {
  it("names pair 1 of a one-candidate run exactly as the reference does", () => {
    assert.equal(measureName({ sibling: null, arm: BASE_ARM, pair: 1 }), "baseline");
    assert.equal(measureName({ sibling: null, arm: CANDIDATE_ARM, pair: 1 }), "candidate");
    assert.equal(measureName({ sibling: "tsp", arm: BASE_ARM, pair: 1 }), "sib-tsp-base");
    assert.equal(measureName({ sibling: "tsp", arm: CANDIDATE_ARM, pair: 1 }), "sib-tsp-cand");
  });

  it("adds #i for pair i and -k for candidate k", () => {
    assert.equal(measureName({ sibling: null, arm: BASE_ARM, pair: 3 }), "baseline#3");
    assert.equal(measureName({ sibling: null, arm: 2, pair: 1 }), "candidate-2");
    assert.equal(measureName({ sibling: null, arm: 12, pair: 4 }), "candidate-12#4");
    assert.equal(measureName({ sibling: "lat", arm: 3, pair: 2 }), "sib-lat-cand-3#2");
  });

  it("refuses an arm that is not a whole number (a caller bug)", () => {
    assert.throws(() => measureName({ sibling: null, arm: -1, pair: 1 }), RangeError);
    assert.throws(() => measureName({ sibling: null, arm: 1.5, pair: 1 }), RangeError);
  });
});

describe("parseMeasureName()", () => {
  const cases: MeasureRef[] = [];
  for (const sibling of [null, "tsp", "a-cand", "x-base", "y-cand-2", "cand", "base", "sib-q", "ü𝔘", "a#2"]) {
    for (const arm of [0, 1, 2, 10]) for (const pair of [1, 2, 37]) cases.push({ sibling, arm, pair });
  }

  it("reads back every name measureName() makes, whatever the sibling is called", () => {
    for (const ref of cases) assert.deepEqual(parseMeasureName(measureName(ref)), ref, measureName(ref));
  });

  it("gives null for names it does not make", () => {
    for (
      const name of ["", "base", "cand", "candidate-1", "candidate-0", "candidate-x", "sib--base", "sib-x", "other"]
    ) {
      assert.equal(parseMeasureName(name), null, name);
    }
  });

  it("splitPairName() takes off only a #<digits> suffix", () => {
    assert.deepEqual(splitPairName("sib-a#2-base#3"), { name: "sib-a#2-base", pair: 3 });
    assert.deepEqual(splitPairName("baseline#0"), { name: "baseline#0", pair: 1 });
  });
});

describe("differenceName()", () => {
  it("keys decision.json's deltas as the reference does for one candidate, by the candidate's name otherwise", () => {
    assert.equal(differenceName(null, CANDIDATE_ARM), "candidate");
    assert.equal(differenceName(null, CANDIDATE_ARM, 2), "candidate#2");
    assert.equal(differenceName("tsp", CANDIDATE_ARM), "sib-tsp");
    assert.equal(differenceName("tsp", CANDIDATE_ARM, 3), "sib-tsp#3");
    assert.equal(differenceName(null, 2, 1), "candidate-2");
    assert.equal(differenceName("tsp", 2, 2), "sib-tsp-cand-2#2");
  });
});

describe("guardName()", () => {
  it("names a guard's series by metric, arm and pair, and reads the name back", () => {
    assert.equal(guardName("size", BASE_ARM), "guard-size-base");
    assert.equal(guardName("size", CANDIDATE_ARM), "guard-size-cand");
    assert.equal(guardName("size", 3, 2), "guard-size-cand-3#2");
    for (
      const [metric, arm, pair] of [["size", 0, 1], ["a-b-cand", 1, 4], ["x#2", 2, 1], ["val_pass", 12, 3]] as const
    ) {
      assert.deepEqual(parseGuardName(guardName(metric, arm, pair)), { metric, arm, pair });
    }
  });

  it("never collides with the benchmark's or a sibling's names", () => {
    for (const name of [guardName("size", 0), guardName("base", 1, 3), guardName("x", 2)]) {
      assert.equal(parseMeasureName(name), null, name);
    }
    assert.equal(parseGuardName("sib-size-base"), null);
    assert.equal(parseGuardName("baseline#2"), null);
    assert.equal(parseGuardName("candidate-2"), null);
  });
});
