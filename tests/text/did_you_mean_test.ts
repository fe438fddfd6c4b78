import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closestKey, editDistance } from "../../src/text/did_you_mean.ts";

describe("editDistance()", () => {
  it("counts insertions, deletions and substitutions", () => {
    assert.equal(editDistance("meassure", "measure"), 1);
    assert.equal(editDistance("shwo", "show"), 2);
  });
});

describe("closestKey()", () => {
  const COMMANDS = ["measure", "calibrate", "resume", "show", "wait", "runs", "report", "prune", "schema", "jobs"];

  it("finds the command or flag a typo was meant to be", () => {
    assert.equal(closestKey("meassure", COMMANDS), "measure");
    assert.equal(closestKey("run", COMMANDS), "runs");
    assert.equal(closestKey("rundir", ["run-dir", "run-tag", "repo"]), "run-dir");
  });

  it("finds none for a word nothing is close to", () => {
    assert.equal(closestKey("frobnicate", COMMANDS), null);
    assert.equal(closestKey("x", []), null);
  });
});
