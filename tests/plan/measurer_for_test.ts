import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lanesOf, measurerFor } from "../../src/plan/measurer_for.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

describe("lanesOf()", () => {
  it("takes the account and partitions from the record; a local run schedules nothing", () => {
    const r = runRecordFixture({ account: "a", partition: "p", gpuPartition: "g", gpuAccount: "ga" });
    assert.deepEqual(lanesOf(r), {
      account: "a",
      partition: "p",
      gpuPartition: "g",
      gpuAccount: "ga",
      scheduled: true,
    });
    assert.equal(lanesOf(runRecordFixture({ compute: "local" })).scheduled, false);
  });
});

describe("measurerFor()", () => {
  it("builds the run's measurer from its dir and record alone: its tag in job names, its dir as the root", () => {
    const r = runRecordFixture({ runTag: "tag7" });
    const m = measurerFor(new RunDir("/runs/r1"), r, new FakeCompute(), () => 0);
    const first = runPlan(r).first.plan[0]!;
    assert.match(m.jobName(first), /tag7/);
    assert.ok(m.evalDir(first).startsWith("/runs/r1/"), m.evalDir(first));
    const again = measurerFor(new RunDir("/runs/r1"), r, new FakeCompute(), () => 0);
    assert.equal(again.jobName(first), m.jobName(first), "the same record gives the same identities");
  });
});
