import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { EVAL_FILES, UNIT_FILES } from "../../src/dispatch/eval_files.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import type { Measure } from "../../src/measure/measure.ts";
import type { DispatchedMeasurer } from "../../src/measure/measurer.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";
import { pendingOf } from "../helpers/pending.ts";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const m = (name: string): Measure => ({
  name,
  treeSha: name.includes("base") ? SHA_A : SHA_B,
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", name.includes("#2") ? "8" : "7"]],
  gpus: 0,
});
const plan = [
  m("baseline"),
  m("candidate"),
  m("sib-lat-base"),
  m("sib-lat-cand"),
  m("baseline#2"),
  m("candidate#2"),
  m(
    "sib-lat-base#2",
  ),
  m("sib-lat-cand#2"),
];

function setup(pairing: "same-job" | "duet" = "same-job", compute = new FakeCompute()) {
  const root = tempDir("measurer-pairs-");
  return { root, compute, measurer: testMeasurer(root, compute, { pairing, evalMinutes: 5 }) };
}

/** What a pair job leaves for each of its measures: a result, provenance on `host`, the exit code. */
function finishPair(measurer: DispatchedMeasurer, ms: readonly Measure[], host = "node1", score = (_x: Measure) => 10) {
  for (const x of ms) {
    const dir = measurer.evalDir(x);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, EVAL_FILES.result), JSON.stringify({ score: score(x) }));
    writeFileSync(join(dir, EVAL_FILES.provenance), `host=${host}\nstarted_at=2026-01-01T00:00:00Z\n`);
    writeFileSync(join(dir, EVAL_FILES.exitCode), "0");
  }
}

describe("a measurer with pairing same-job", () => {
  it("submits one job per pair, asking for the walltime of all its measures, and records its id beside each", async () => {
    const { measurer, compute } = setup();
    const pending = await pendingOf(measurer.results(plan));
    assert.equal(compute.submitted.length, 2);
    assert.deepEqual(pending.jobIds, ["1000", "1001"]);
    const [one, two] = compute.submitted as [JobSpec, JobSpec];
    assert.match(one.jobName, /^eval-run1-same#1-[0-9a-f]{16}$/);
    assert.match(two.jobName, /^eval-run1-same#2-/);
    assert.equal(one.timeMinutes, 20, "four measures of 5 minutes, one after the other");
    assert.match(one.script!, /\/pair1-[0-9a-f]{40}\/job\.sh$/);
    assert.equal(readFileSync(join(dirname(one.script!), UNIT_FILES.submitted), "utf8"), "1000");
    for (const x of plan.slice(0, 4)) {
      assert.equal(readFileSync(join(measurer.evalDir(x), EVAL_FILES.submitted), "utf8"), "1000");
      assert.ok(existsSync(join(measurer.evalDir(x), EVAL_FILES.script)), `${x.name} has its own job script`);
      assert.equal(measurer.marker(x), "1000");
    }
    const body = readFileSync(two.script!, "utf8");
    const order = ["candidate#2", "baseline#2", "sib-lat-cand#2", "sib-lat-base#2"].map((n) =>
      body.indexOf(measurer.evalDir(plan.find((x) => x.name === n)!))
    );
    assert.deepEqual([...order].sort((a, b) => a - b), order, "pair 2 runs its candidate first");
  });

  it("parks on a pair job found live by name, submitting nothing, and reads every result once it is done", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results(plan));
    const names = compute.submitted.map((s) => s.jobName);
    compute.live = new Map(names.map((n, i) => [n, [String(1000 + i)]]));
    compute.submitted.length = 0;
    const again = await pendingOf(measurer.results(plan));
    assert.deepEqual(again.jobIds, ["1000", "1001"]);
    assert.equal(compute.submitted.length, 0);
    finishPair(measurer, plan);
    compute.live = new Map();
    assert.deepEqual(Object.keys(await measurer.results(plan)), plan.map((x) => x.name));
  });

  it("after a crash between the sbatch and the markers, adopts the pair job found by name instead of submitting a second", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results(plan));
    const spec = compute.submitted[0]!;
    for (const x of plan.slice(0, 4)) rmSync(join(measurer.evalDir(x), EVAL_FILES.submitted));
    rmSync(join(dirname(spec.script!), UNIT_FILES.submitted));
    compute.live = new Map([[spec.jobName, ["1000"]], [compute.submitted[1]!.jobName, ["1001"]]]);
    compute.live.delete(spec.jobName); // the job is over: the listing no longer shows it, but it was submitted
    const before = compute.submitted.length;
    const pending = await pendingOf(measurer.results(plan));
    assert.equal(compute.submitted.length, before, "no second job");
    assert.ok(pending.jobIds.includes("1000"));
    assert.equal(readFileSync(join(measurer.evalDir(plan[1]!), EVAL_FILES.submitted), "utf8"), "1000");
  });

  it("takes the pair job's id from a measure that has it when a crash left the others without theirs", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results(plan));
    rmSync(join(measurer.evalDir(plan[1]!), EVAL_FILES.submitted));
    rmSync(join(dirname(compute.submitted[0]!.script!), UNIT_FILES.submitted));
    assert.equal(measurer.marker(plan[1]!), "1000");
  });

  it("fails the pair when its measures ran on two hosts", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results(plan));
    finishPair(measurer, plan.slice(0, 4), "node1");
    finishPair(measurer, plan.slice(4), "node2");
    finishPair(measurer, [plan[5]!], "node3");
    compute.live = new Map();
    await assert.rejects(
      measurer.results(plan),
      (e: unknown) =>
        e instanceof EvalError && /pair 2: its same-job job's measures ran on different hosts/.test(e.message) &&
        /candidate#2 on "node3"/.test(e.message),
    );
  });

  it("fails a measure its pair job ended without, and dispatches nothing again", async () => {
    const { measurer, compute } = setup();
    await pendingOf(measurer.results(plan));
    finishPair(measurer, plan.filter((x) => x.name !== "sib-lat-cand"));
    compute.live = new Map();
    compute.states = new Map([["1000", "TIMEOUT"], ["1001", "COMPLETED"]]);
    const before = compute.submitted.length;
    await assert.rejects(measurer.results(plan), /measure sib-lat-cand: job 1000 hit its walltime/);
    assert.equal(compute.submitted.length, before);
  });
});

describe("a measurer with pairing duet", () => {
  it("asks for twice the CPUs and memory for half the walltime of one after the other", async () => {
    const { measurer, compute } = setup("duet");
    await pendingOf(measurer.results(plan));
    const spec = compute.submitted[0]!;
    assert.match(spec.jobName, /^eval-run1-duet#1-/);
    assert.equal(spec.timeMinutes, 10);
    assert.equal(spec.cpus, 2);
    assert.equal(spec.mem, "4G");
    assert.match(readFileSync(spec.script!, "utf8"), /ol_two /);
  });
});
