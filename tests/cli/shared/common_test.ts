import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nonEmpty, resolveMode, wholeNumber } from "../../../src/cli/shared/common.ts";

describe("resolveMode()", () => {
  it("takes --compute, else AUTORESEARCH_COMPUTE, else slurm", () => {
    assert.equal(resolveMode("local", { AUTORESEARCH_COMPUTE: "sge" }), "local");
    assert.equal(resolveMode(undefined, { AUTORESEARCH_COMPUTE: " SGE " }), "sge");
    assert.equal(resolveMode(undefined, {}), "slurm");
    assert.throws(() => resolveMode("pbs", {}), /Invalid --compute "pbs": expected "local", "slurm" or "sge"/);
  });
});

describe("wholeNumber()", () => {
  it("the fallback when absent, the number when whole and in range", () => {
    assert.equal(wholeNumber("cpus", undefined, 1), 1);
    assert.equal(wholeNumber("cpus", "8", 1, 1), 8);
  });

  it("refuses a fraction, a sign, and a number out of range, saying the range", () => {
    assert.throws(() => wholeNumber("cpus", "1.5", 1, 1), /Invalid --cpus "1\.5": expected a whole number ≥ 1/);
    assert.throws(() => wholeNumber("cpus", "-1", 1), /expected a whole number ≥ 0/);
    assert.throws(() => wholeNumber("time", "0", 60, 1, 10), /expected a whole number from 1 to 10/);
  });
});

describe("nonEmpty()", () => {
  it("passes a value or its absence, refuses a blank one", () => {
    assert.equal(nonEmpty("name", "x"), "x");
    assert.equal(nonEmpty("name", undefined), undefined);
    assert.throws(() => nonEmpty("name", " "), /Invalid --name "": give a value or leave the flag out/);
  });
});
