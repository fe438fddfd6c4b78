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
import { FakeCompute } from "../helpers/fake_compute.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";
import { pendingOf } from "../helpers/pending.ts";

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

  it("sends tasks that died of their machine before they started again, as a new array, at most twice each", async () => {
    const { root, compute, again } = setup();
    const measures = look(2);
    await pendingOf(again().results(measures));
    const first = again();
    const taskOf = (x: Measure) => first.marker(x);
    const [a, b] = [measures[1]!, measures[2]!];
    const [deadA, deadB] = [taskOf(a), taskOf(b)];
    compute.states = new Map([[deadA, "NODE_FAIL"], [deadB, "BOOT_FAIL"]]);
    const pending = await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((x) => x.tasks), [4, 2], "the two dead tasks, as an array of their own");
    assert.ok(pending.jobIds.includes("1001"));
    const m = again();
    assert.deepEqual([m.marker(a), m.marker(b)].sort(), ["1001_0", "1001_1"]);
    assert.equal(readFileSync(join(m.evalDir(a), "retried"), "utf8"), `${deadA}\n`);
    const retryArray = readArrayJobs(root).find((x) => x.submitted === "1001")!;
    assert.match(readFileSync(join(retryArray.dir, ARRAY_FILES.manifest), "utf8"), /\n# after \S+ \S+\n$/);
    assert.equal(retryArray.scripts.length, 2, "the note is no task");
    // a second death of the same kind: sent again; a third fails the run
    const retryA = m.marker(a);
    compute.states = new Map([...compute.states, [retryA, "PREEMPTED"]]);
    await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((x) => x.tasks), [4, 2], "one measure alone goes as a job of its own");
    assert.equal(again().marker(a), "1002");
    assert.equal(readFileSync(join(m.evalDir(a), "retried"), "utf8"), `${deadA}\n${retryA}\n`);
    compute.states = new Map([...compute.states, ["1002", "NODE_FAIL"]]);
    await assert.rejects(again().results(measures), /measure candidate: .*NODE_FAIL/);
    const sends = submissionsPerScript(compute);
    assert.equal(sends.get(join(m.evalDir(a), EVAL_FILES.script)), 3, "sent three times, not a fourth");
    assert.equal(sends.get(join(m.evalDir(b), EVAL_FILES.script)), 2);
  });

  it("sends again a task that started before its node failed; never one that failed of its command", async () => {
    const { compute, again } = setup();
    const measures = look(1);
    await pendingOf(again().results(measures));
    const m = again();
    writeFileSync(join(m.evalDir(measures[0]!), EVAL_FILES.started), "2026-01-01T00:00:00Z node1\n");
    const dead = m.marker(measures[0]!);
    compute.states = new Map([[dead, "NODE_FAIL"], [m.marker(measures[1]!), "FAILED"]]);
    const r = await again().look(measures);
    assert.deepEqual(r.failed.map((f) => [f.measure, f.kind]), [["candidate", "vanished"]]);
    assert.match(r.failed[0]!.message, /measure candidate: .*FAILED/);
    assert.equal(compute.submitted.length, 3, "the baseline sent again, the candidate not");
    assert.equal(
      readFileSync(join(m.evalDir(measures[0]!), "attempt-1", EVAL_FILES.started), "utf8"),
      "2026-01-01T00:00:00Z node1\n",
      "the attempt that started is kept",
    );
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
