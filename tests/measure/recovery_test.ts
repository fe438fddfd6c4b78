/** Crash recovery (recovery.ts): around the sbatch, by the manifest's name, never a second array. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ARRAY_FILES, readArrayJobs } from "../../src/dispatch/array_job.ts";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { look, setup } from "../helpers/arrays_measurer.ts";
import { pendingOf } from "../helpers/pending.ts";

describe("recovery after a crash", () => {
  it("after a crash between the sbatch and the markers, adopts the array by its manifest's name: no second array", async () => {
    const compute = new FakeCompute();
    compute.onSubmitArray = () => {
      throw new Error("the pass died here");
    };
    const { root, again } = setup(compute);
    const measures = look(3);
    await assert.rejects(again().results(measures), /the pass died here/);
    assert.equal(compute.arrays.length, 1);
    assert.equal(readArrayJobs(root)[0]!.submitted, null, "the sbatch went through, its id was never recorded");
    compute.onSubmitArray = () => {};
    // listed, its tasks are the measures' jobs
    compute.live = new Map([[compute.arrays[0]!.spec.jobName, measures.map((_, t) => `1000_${t}`)]]);
    assert.deepEqual((await pendingOf(again().results(measures))).jobIds, ["1000"]);
    assert.equal(compute.arrays.length, 1, "no second array");
    // not listed (a lagging listing): found by the manifest's name, and its tasks recorded
    compute.live = new Map();
    const m2 = again();
    assert.deepEqual((await pendingOf(m2.results(measures))).jobIds, ["1000"]);
    assert.equal(compute.arrays.length, 1, "no second array");
    assert.deepEqual(measures.map((x) => m2.marker(x)).sort(), measures.map((_, t) => `1000_${t}`).sort());
    assert.equal(readFileSync(join(readArrayJobs(root)[0]!.dir, ARRAY_FILES.submitted), "utf8"), "1000");
  });

  it("after a crash between the manifest and the sbatch, submits the array once", async () => {
    class DiesBeforeSbatch extends FakeCompute {
      dies = true;
      override async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
        if (this.dies) throw new Error("the pass died before its sbatch");
        return await super.submitArray(spec, tasks, throttle);
      }
    }
    const compute = new DiesBeforeSbatch();
    const { root, again } = setup(compute);
    const measures = look(3);
    await assert.rejects(again().results(measures), /died before its sbatch/);
    assert.equal(readArrayJobs(root).length, 1, "the manifest was written first");
    compute.dies = false;
    await pendingOf(again().results(measures));
    assert.equal(compute.arrays.length, 1);
    assert.equal(compute.arrays[0]!.tasks, 6);
    assert.equal(readArrayJobs(root).length, 1);
  });
});
