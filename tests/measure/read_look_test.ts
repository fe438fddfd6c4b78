import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurerContext } from "../../src/measure/measurer_context.ts";
import { observe } from "../../src/measure/observe.ts";
import { ended, readOutcomes } from "../../src/measure/read_look.ts";
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
  const compute = new FakeCompute();
  const ctx = new MeasurerContext({
    compute,
    root: tempDir("read-look-"),
    repoRoot: "/repo",
    image: "",
    lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 2,
    evalMem: "2G",
    evalCpus: 1,
    runTag: "t",
    pairing: "separate",
    seedCache: null,
    now: Date.now,
  });
  const files = (m: Measure, f: Record<string, string>) => {
    mkdirSync(ctx.evalDir(m), { recursive: true });
    for (const [k, v] of Object.entries(f)) writeFileSync(join(ctx.evalDir(m), k), v);
  };
  return { ctx, compute, files };
}

describe("readOutcomes()", () => {
  it("gives each done measure its value, its failure, or — for an exit 143 — what the scheduler's end makes it", async () => {
    const { ctx, compute, files } = setup();
    const ms = ["ok", "crash", "silent", "walltime", "preempted", "ours"].map(measure);
    files(ms[0]!, { [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: '{"score": 2, "rss": 9}' });
    files(ms[1]!, { [EVAL_FILES.exitCode]: "1" });
    files(ms[2]!, { [EVAL_FILES.exitCode]: "0" });
    for (const [m, id] of [[ms[3]!, "3"], [ms[4]!, "4"], [ms[5]!, "5_1"]] as const) {
      files(m, { [EVAL_FILES.exitCode]: "143", [EVAL_FILES.submitted]: id });
    }
    compute.states = new Map([["3", "TIMEOUT"], ["4", "PREEMPTED"], ["5_1", "CANCELLED by 0"]]);
    const views = await observe(ctx, ms);
    compute.calls = [];
    const out = await readOutcomes(ctx, views, new Set(["5"]));
    assert.deepEqual(compute.calls, ["sacct"], "one sacct for every exit 143");
    assert.deepEqual(out.get("ok"), { kind: "value", value: 2, metrics: { rss: 9 } });
    const kind = (n: string) => {
      const o = out.get(n)!;
      return o.kind === "failed" ? `${o.failure.kind}: ${o.failure.cause}` : o.kind;
    };
    assert.equal(kind("crash"), "exit: eval command exited with code 1");
    assert.match(kind("silent"), /^no-metric: eval command gave no result/);
    assert.equal(kind("walltime"), "timeout: ran past eval_minutes (2 minutes)");
    assert.equal(kind("preempted"), "resend");
    assert.equal(kind("ours"), "ours");
  });

  it("judges an end with no exit code: a walltime, a failure of its own, nobody's code, or ours", () => {
    const { ctx } = setup();
    const m = measure("m");
    const none = new Set<string>();
    const cause = (state: string, ours = none) => {
      const o = ended(ctx, m, "7", state, ours);
      return o.kind === "failed" ? [o.failure.kind, o.failure.cause] : [o.kind];
    };
    assert.deepEqual(cause("TIMEOUT"), ["timeout", "ran past eval_minutes (2 minutes)"]);
    assert.deepEqual(cause("OUT_OF_MEMORY"), ["vanished", "job 7 ended OUT_OF_MEMORY without a result"]);
    assert.deepEqual(cause(""), ["vanished", "dispatched job vanished without a result"]);
    assert.deepEqual(cause("CANCELLED by 1000"), ["resend"]);
    assert.deepEqual(cause("BOOT_FAIL"), ["resend"]);
    assert.deepEqual(cause("CANCELLED by 1000", new Set(["7"])), ["ours"]);
  });
});

describe("a job that failed before its eval started", () => {
  it("says its node may not see the run dir (a node-local path), naming the run dir and how to look", () => {
    const { ctx, files } = setup();
    const m = measure("m");
    files(m, { [EVAL_FILES.submitted]: "7" });
    const o = ended(ctx, m, "7", "FAILED", new Set());
    assert.equal(o.kind, "failed");
    const message = o.kind === "failed" ? o.failure.message : "";
    assert.ok(message.startsWith("measure m: job 7 ended FAILED without a result; its eval never started"), message);
    assert.ok(message.includes(`may not see the run dir ${ctx.o.root} (a path each node has its own of, such as /tmp`));
    assert.ok(message.endsWith(`see "sacct -j 7 -o JobID,State,NodeList,ExitCode"`), message);
    // one that started and then failed without a result says nothing of paths
    files(m, { [EVAL_FILES.started]: "2026-12-03T00:00:00Z tbnode1\n" });
    ctx.clearReads();
    const started = ended(ctx, m, "7", "FAILED", new Set());
    assert.equal(
      started.kind === "failed" && started.failure.message,
      "measure m: job 7 ended FAILED without a result",
    );
  });
});

describe("DispatchedMeasurer.outcomes()", () => {
  it("says what a look would make of each measure, dispatching and writing nothing", async () => {
    const { testMeasurer } = await import("../helpers/run_fixture.ts");
    const compute = new FakeCompute();
    const m = testMeasurer(tempDir("outcomes-"), compute);
    const [a, b] = [measure("a"), measure("b")];
    mkdirSync(m.evalDir(a), { recursive: true });
    writeFileSync(join(m.evalDir(a), EVAL_FILES.submitted), "4");
    writeFileSync(join(m.evalDir(a), EVAL_FILES.exitCode), "143");
    compute.states = new Map([["4", "PREEMPTED"]]);
    const views = await m.observe([a, b]);
    const out = await m.outcomes(views);
    assert.deepEqual(out.get("a"), { kind: "resend", jobId: "4", endState: "PREEMPTED" });
    assert.equal(out.has("b"), false, "undispatched: no outcome");
    assert.equal(compute.submitted.length, 0);
    assert.equal(m.marker(a), "4", "nothing set aside");
  });
});
