import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { computeFor } from "../../src/compute/from_mode.ts";

describe("computeFor()", () => {
  it("the local backend answers through the mode's proxy: no job is ever left live", async () => {
    const c = computeFor("local");
    assert.deepEqual(await c.activeJobNames(), []);
    assert.deepEqual([...(await c.activeJobs()).keys()], []);
  });

  it("says whether its backend runs a job inside submit (local only) without loading it", () => {
    assert.deepEqual([computeFor("local").runsOnSubmit, computeFor("slurm").runsOnSubmit], [true, false]);
  });

  it("loads nothing until a verb is called: making a scheduler's backend asks nothing of it", () => {
    assert.doesNotThrow(() => computeFor("slurm"));
    assert.doesNotThrow(() => computeFor("sge"));
  });
});
