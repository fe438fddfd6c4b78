/** Dispatch (dispatch.ts): a look as arrays, one per option set, chunked at MaxArraySize. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setLogSink } from "../../src/log.ts";
import { look, measure, setup, submissionsPerScript } from "../helpers/arrays_measurer.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { pendingOf } from "../helpers/pending.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

describe("dispatch with arrays on", () => {
  it("sends a look of 24 measures as arrays of at most MaxArraySize tasks, each task's indices from 0", async () => {
    const { measurer, compute } = setup();
    compute.maxArray = 11;
    const measures = look(12);
    await pendingOf(measurer.results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [11, 11, 2]);
    assert.equal(compute.calls.filter((c) => c === "scontrol show config").length, 1, "MaxArraySize asked once");
    const markers = measures.map((x) => measurer.marker(x)).sort();
    assert.deepEqual(
      markers,
      [
        ...Array.from({ length: 11 }, (_, t) => `1000_${t}`),
        ...Array.from({ length: 11 }, (_, t) => `1001_${t}`),
        "1002_0",
        "1002_1",
      ].sort(),
    );
    assert.ok([...submissionsPerScript(compute).values()].every((n) => n === 1), "every measure submitted once");
  });

  it("sends one array per option set: GPU measures apart from CPU ones", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results([...look(2), measure("sib-gpu-base", 1), measure("sib-gpu-cand", 1)]));
    assert.deepEqual(compute.arrays.map((a) => [a.tasks, a.spec.partition, a.spec.gpus ?? 0]), [
      [4, "cpu", 0],
      [2, "gpu", 1],
    ]);
  });
});

describe("dispatch on a backend that runs each job inside submit (the local one)", () => {
  /** A fake that, like the local backend, runs the job before submit returns: its end is logged in there. */
  class RunsOnSubmit extends FakeCompute {
    readonly runsOnSubmit = true;
  }

  it("says what it runs before the job's own end is logged, never 'dispatched' after it", async () => {
    for (const arrays of [true, false]) {
      const compute = new RunsOnSubmit();
      const lines: string[] = [];
      compute.onSubmit = (spec, id) => lines.push(`ran ${spec.jobName} as job ${id}`);
      compute.onSubmitArray = (_, id) => lines.push(`ran array ${id}`);
      const restore = setLogSink((l) => lines.push(l));
      try {
        const root = tempDir("measurer-local-log-");
        const lanes = { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: false };
        const measurer = testMeasurer(root, compute, { arrays: { enabled: arrays, throttle: null }, lanes });
        await pendingOf(measurer.results(look(1)));
      } finally {
        restore();
      }
      const first = lines.findIndex((l) => l.startsWith("ran "));
      assert.ok(first > 0 && /running .*locally/.test(lines[first - 1]!), lines.join("\n"));
      assert.ok(!lines.some((l) => /dispatched/.test(l)), lines.join("\n"));
    }
  });
});
