import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meanOfPairs, pairList, setAsideClause, setAsideWords } from "../../src/report/set_aside.ts";

const ESD = "outlying by the generalized ESD test";

describe("pairList()", () => {
  it("names one pair, two, or several, sorted", () => {
    assert.equal(pairList([8]), "pair 8");
    assert.equal(pairList([8, 3]), "pairs 3 and 8");
    assert.equal(pairList([8, 2, 3]), "pairs 2, 3 and 8");
  });
});

describe("setAsideClause()", () => {
  it("names the pairs and why, the words every surface uses", () => {
    assert.equal(setAsideClause([8], ESD), "pair 8 set aside, outlying by the generalized ESD test");
    assert.equal(setAsideClause([8, 3]), "pairs 3 and 8 set aside, outlying");
  });
});

describe("setAsideWords()", () => {
  it("gives the clause with the pairs' measures, a sibling's when named; nothing for none", () => {
    assert.equal(setAsideWords([8], ESD), `pair 8 set aside, ${ESD} (baseline#8, candidate#8)`);
    assert.equal(
      setAsideWords([8, 1], ESD),
      `pairs 1 and 8 set aside, ${ESD} (baseline, candidate; baseline#8, candidate#8)`,
    );
    assert.equal(setAsideWords([3], ESD, "lat"), `pair 3 set aside, ${ESD} (sib-lat-base#3, sib-lat-cand#3)`);
    assert.equal(setAsideWords([], ESD), "");
  });
});

describe("meanOfPairs()", () => {
  it("labels a mean row by the pairs it keeps", () => {
    assert.equal(meanOfPairs(10, []), "mean of 10 pairs");
    assert.equal(meanOfPairs(10, [8]), "mean of 9 of 10 pairs; pair 8 set aside");
  });
});
