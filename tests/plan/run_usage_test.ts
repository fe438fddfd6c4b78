import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { elapsedOnly, type JobUsage } from "../../src/compute/usage.ts";
import { measureUsage, sharedJobNotes, sharedJobs, timeoutWarnings } from "../../src/plan/run_usage.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";

const used = (jobId: string, over: Partial<JobUsage> = {}): JobUsage => ({
  ...elapsedOnly(jobId, "COMPLETED", 50),
  timelimitS: 60,
  allocCpus: 1,
  ...over,
});

describe("measureUsage()", () => {
  it("gives array tasks their usage, and every measure of a pair job that job's, from one query", async () => {
    const compute = new FakeCompute();
    compute.usages = new Map([["84_0", used("84_0")], ["84_1", used("84_1")], ["90", used("90")]]);
    const usage = await measureUsage(compute, [
      { name: "baseline", jobId: "84_0" },
      { name: "candidate", jobId: "84_1" },
      { name: "sib-a-base", jobId: "90" },
      { name: "sib-a-cand", jobId: "90" },
      { name: "never-sent", jobId: "" },
    ], "2026-01-01T00:00:00.000Z");
    assert.deepEqual(Object.keys(usage), ["baseline", "candidate", "sib-a-base", "sib-a-cand"]);
    assert.equal(usage["baseline"]!.jobId, "84_0");
    assert.deepEqual(compute.calls, ["sacct"]);
    assert.deepEqual([...sharedJobs(usage)], [["90", ["sib-a-base", "sib-a-cand"]]]);
    assert.deepEqual(sharedJobNotes(usage), [
      "sib-a-base, sib-a-cand ran in one job (90): each row is that job's use, all 2 measures together",
    ]);
  });

  it("leaves out a job still running, and gives {} when sacct fails", async () => {
    const compute = new FakeCompute();
    compute.usages = new Map([["84_0", used("84_0", { state: "RUNNING" })]]);
    assert.deepEqual(await measureUsage(compute, [{ name: "b", jobId: "84_0" }], "x"), {});
    compute.usages = null;
    assert.deepEqual(await measureUsage(compute, [{ name: "b", jobId: "84_0" }], "x"), {});
  });

  it("warns of an array task that delivered yet ended TIMEOUT", () => {
    const [w] = timeoutWarnings({ candidate: used("84_1", { state: "TIMEOUT", elapsedS: 71 }) }, 1);
    assert.match(
      w!,
      /^Warning: measure "candidate" \(job 84_1\) ran 1m11s of its 1m00s walltime and Slurm marked it TIMEOUT/,
    );
  });
});
