/**
 * A measurer with arrays on: what a look's dispatch sends to the scheduler
 * (one array per option set, chunked at MaxArraySize), what it does at a
 * site's submit limit (sized to the room, the rest waiting, never twice),
 * and how it recovers from a crash around the sbatch (by the manifest's name,
 * never a second array).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SubmitLimitError } from "../../src/compute/errors.ts";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { ARRAY_FILES, readArrayJobs } from "../../src/dispatch/array_job.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { readRoomNote, ROOM_NOTE } from "../../src/dispatch/room_note.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurementPending } from "../../src/measure/pending.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const measure = (name: string, gpus = 0): Measure => ({
  name,
  treeSha: name.startsWith("base") ? SHA_A : SHA_B,
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", String(name.length)]],
  gpus,
});
/** A look of `pairs` pairs: baseline, candidate, baseline#2, candidate#2, … */
const look = (pairs: number, gpus = 0): Measure[] =>
  Array.from({ length: pairs }, (_, i) => {
    const k = i === 0 ? "" : `#${i + 1}`;
    return [measure(`baseline${k}`, gpus), measure(`candidate${k}`, gpus)];
  }).flat();

function setup(compute = new FakeCompute()) {
  const root = tempDir("measurer-arrays-");
  const options = {
    arrays: { enabled: true, throttle: null },
    lanes: { account: "acct", partition: "cpu", gpuPartition: "gpu", gpuAccount: "", scheduled: true },
  };
  return {
    root,
    compute,
    measurer: testMeasurer(root, compute, options),
    again: () => testMeasurer(root, compute, options),
  };
}

async function pendingOf(p: Promise<unknown>): Promise<MeasurementPending> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MeasurementPending) return err;
    throw err;
  }
  throw new Error("expected MeasurementPending");
}

/** How many times each eval dir's script went to the scheduler (as a job or an array task). */
function submissionsPerScript(compute: FakeCompute): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of compute.submitted) counts.set(s.script!, (counts.get(s.script!) ?? 0) + 1);
  return counts;
}

/** A fake whose site lets `capacity` jobs in at a time: a bigger array is refused whole, as Slurm does. */
class LimitedCompute extends FakeCompute {
  capacity: number;
  constructor(capacity: number) {
    super();
    this.capacity = capacity;
    this.room = { jobs: capacity, limit: "MaxSubmitJobs=10 (acct_lim)" };
  }
  override async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    if (tasks > this.capacity) {
      this.calls.push("sbatch --array");
      throw new SubmitLimitError("sbatch: error: AssocMaxSubmitJobLimit", "AssocMaxSubmitJobLimit");
    }
    this.capacity -= tasks;
    this.room = { jobs: this.capacity, limit: "MaxSubmitJobs=10 (acct_lim)" };
    return await super.submitArray(spec, tasks, throttle);
  }
}

describe("a measurer with arrays on", () => {
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

  it("at a submit limit sends what fits less one for the wake, notes what waits, and sends the rest on a later pass", async () => {
    const compute = new LimitedCompute(10);
    const { root, measurer, again } = setup(compute);
    const measures = look(12);
    const first = await pendingOf(measurer.results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9], "24 refused whole, then 10 − 1 for the wake");
    assert.deepEqual(first.jobIds, ["1000"]);
    assert.deepEqual(
      { ...readRoomNote(root), at: "" },
      { limit: "MaxSubmitJobs=10 (acct_lim)", waiting: 15, at: "" },
    );
    // the first nine end; the site has room for ten again
    compute.capacity = 10;
    compute.room = { jobs: 10, limit: "MaxSubmitJobs=10 (acct_lim)" };
    compute.states = new Map(Array.from({ length: 9 }, (_, t) => [`1000_${t}`, "COMPLETED"]));
    for (const x of measures.slice(0, 9)) {
      const dir = measurer.evalDir(x);
      writeFileSync(join(dir, EVAL_FILES.result), '{"score": 1}');
      writeFileSync(join(dir, EVAL_FILES.exitCode), "0");
    }
    await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9, 9], "nine more");
    compute.capacity = 10;
    compute.room = { jobs: 10, limit: "MaxSubmitJobs=10 (acct_lim)" };
    await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9, 9, 6], "the last six: all 24 sent");
    assert.equal(existsSync(join(root, ROOM_NOTE)), false, "nothing waits: the note is gone");
    assert.ok([...submissionsPerScript(compute).values()].every((n) => n === 1), "never a measure twice");
    assert.equal(submissionsPerScript(compute).size, 24);
  });

  it("sends nothing and parks when the room cannot be known, keeping every measure for a later pass", async () => {
    const compute = new LimitedCompute(0);
    compute.room = new Error("sacctmgr: connect failure");
    const { root, measurer } = setup(compute);
    const pending = await pendingOf(measurer.results(look(3)));
    assert.deepEqual(pending.jobIds, []);
    assert.equal(compute.arrays.length, 0);
    assert.equal(readRoomNote(root)?.waiting, 6);
  });

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
