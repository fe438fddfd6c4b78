/** Dispatch (dispatch.ts): a look as arrays, one per option set, chunked at MaxArraySize. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { look, measure, setup, submissionsPerScript } from "../helpers/arrays_measurer.ts";
import { pendingOf } from "../helpers/pending.ts";

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
