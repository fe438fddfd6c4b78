import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closestKey, editDistance, unknownKeyMessage } from "../../src/contract/did_you_mean.ts";

const KEYS = ["name", "command", "metric", "direction", "min_effect", "max_repeats", "repeats", "tolerance"];

describe("editDistance()", () => {
  it("counts insertions, deletions and substitutions", () => {
    assert.equal(editDistance("min_efect", "min_effect"), 1);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(editDistance("same", "same"), 0);
  });
});

describe("closestKey()", () => {
  it("finds the key a typo was meant to be, without case and with - for _", () => {
    assert.equal(closestKey("min_efect", KEYS), "min_effect");
    assert.equal(closestKey("tolerence", KEYS), "tolerance");
    assert.equal(closestKey("Min-Effect", KEYS), "min_effect");
    assert.equal(closestKey("diretcion", KEYS), "direction");
  });

  it("finds none for a key nothing is close to", () => {
    assert.equal(closestKey("colour", KEYS), null);
    assert.equal(closestKey("x", []), null);
  });
});

describe("unknownKeyMessage()", () => {
  it("says did you mean, or names the key alone", () => {
    assert.equal(unknownKeyMessage("min_efect", KEYS), 'Unknown key "min_efect": did you mean "min_effect"?');
    assert.match(unknownKeyMessage("colour", KEYS), /^Unknown key "colour"; remove it/);
  });
});
