import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurerContext } from "../../src/measure/measurer_context.ts";
import { CANCELLED_PENDING, NO_RECORD_GRACE_MS, observe } from "../../src/measure/observe.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { tempDir } from "../helpers/temp.ts";

const measure = (name: string): Measure => ({
  name,
  treeSha: "a".repeat(40),
  command: "true",
  metric: "score",
  extraEnv: [],
  gpus: 0,
});

function setup() {
  const root = tempDir("observe-");
  const compute = new FakeCompute();
  const ctx = new MeasurerContext({
    compute,
    root,
    repoRoot: "/repo",
    image: "",
    lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 5,
    evalMem: "2G",
    evalCpus: 1,
    runTag: "t",
    pairing: "separate",
    seedCache: null,
    now: Date.now,
  });
  const mark = (m: Measure, id: string, ageMs: number) => {
    mkdirSync(ctx.evalDir(m), { recursive: true });
    const f = join(ctx.evalDir(m), EVAL_FILES.submitted);
    writeFileSync(f, id);
    utimesSync(f, (Date.now() - ageMs) / 1000, (Date.now() - ageMs) / 1000);
  };
  return { ctx, compute, mark };
}

describe("observe()", () => {
  it("asks one listing for all and sacct once, only for the dispatched jobs the listing misses", async () => {
    const { ctx, compute, mark } = setup();
    const [a, b, c, d] = ["a", "b", "c", "d"].map(measure) as [Measure, Measure, Measure, Measure];
    mark(a, "10", 1000);
    mark(b, "11", NO_RECORD_GRACE_MS + 1000);
    mark(c, "12", NO_RECORD_GRACE_MS + 1000);
    compute.live = new Map([[ctx.jobName(a), ["10"]]]);
    compute.states = new Map([["12", "NODE_FAIL"]]);
    const views = await observe(ctx, [a, b, c, d]);
    assert.deepEqual(compute.calls, ["squeue", "sacct"]);
    assert.deepEqual(views.map((v) => v.state.kind), ["live", "vanished", "vanished", "undispatched"]);
    assert.deepEqual([views[1]!.observation.accounted, views[2]!.observation.accounted], ["GONE", "NODE_FAIL"]);
  });

  it("reads a job that ended while the scheduler answered as done, and a fresh one with no record as unknown", async () => {
    const { ctx, compute, mark } = setup();
    const [a, b] = [measure("a"), measure("b")];
    mark(a, "10", NO_RECORD_GRACE_MS + 1000);
    mark(b, "11", 1000);
    const statuses = compute.statuses.bind(compute);
    compute.statuses = async (ids) => {
      writeFileSync(join(ctx.evalDir(a), EVAL_FILES.exitCode), "0");
      return await statuses(ids);
    };
    const views = await observe(ctx, [a, b]);
    assert.deepEqual(views.map((v) => v.state.kind), ["done", "unknown"]);
    assert.equal(
      views[1]!.state.kind === "unknown" && views[1]!.state.why,
      "just submitted; not in the queue listing yet",
    );
  });

  it("asks the scheduler nothing when every measure is done", async () => {
    const { ctx, compute } = setup();
    const a = measure("a");
    mkdirSync(ctx.evalDir(a), { recursive: true });
    writeFileSync(join(ctx.evalDir(a), EVAL_FILES.exitCode), "0");
    assert.deepEqual((await observe(ctx, [a])).map((v) => v.state.kind), ["done"]);
    assert.deepEqual(compute.calls, []);
  });

  it("reads a task with no sacct row, its array over, as cancelled while pending once a finished task has one", async () => {
    const { ctx, compute, mark } = setup();
    const [a, b] = [measure("a"), measure("b")];
    mark(a, "30_0", 1000);
    writeFileSync(join(ctx.evalDir(a), EVAL_FILES.exitCode), "0");
    mark(b, "30_1", 1000);
    compute.states = new Map([["30_0", "COMPLETED"]]);
    const views = await observe(ctx, [a, b]);
    assert.deepEqual(views[1]!.state, { kind: "vanished", jobId: "30_1", endState: CANCELLED_PENDING });
    // with no finished task to tell, it is unknown within the grace, and cancelled while pending after it
    mark(a, "31_0", 1000);
    mark(b, "31_1", 1000);
    compute.states = new Map();
    const [x] = [await observe(ctx, [b])];
    assert.equal(x[0]!.state.kind, "unknown");
    mark(b, "31_1", NO_RECORD_GRACE_MS + 1000);
    assert.deepEqual((await observe(ctx, [b]))[0]!.state, {
      kind: "vanished",
      jobId: "31_1",
      endState: CANCELLED_PENDING,
    });
  });
});
