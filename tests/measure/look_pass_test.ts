/**
 * One look (look_pass.ts) through the measurer's `look`: a measure's own
 * failure is reported with its cause while every other measure is
 * dispatched and read; what is nobody's code is sent again, bounded; what
 * outerloop cancelled is neither; `forgetFailed` sets a failure aside for a
 * later pass.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import type { DispatchedMeasurer } from "../../src/measure/measurer.ts";
import { MAX_RETRIES } from "../../src/measure/retry.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const measure = (name: string): Measure => ({
  name,
  treeSha: (name.startsWith("base") ? "a" : "b").repeat(40),
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", String(name.length)]],
  gpus: 0,
});
const round = ["baseline", "candidate-1", "candidate-2", "candidate-3"].map(measure);

function setup(options = {}) {
  const root = tempDir("look-pass-");
  const compute = new FakeCompute();
  return { root, compute, m: testMeasurer(root, compute, options) };
}

function write(m: DispatchedMeasurer, x: Measure, files: Record<string, string>): void {
  mkdirSync(m.evalDir(x), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(m.evalDir(x), name), text);
}

describe("a look with a failed measure", () => {
  it("reports each failure with its kind and cause, and reads and dispatches every other measure", async () => {
    const { m, compute } = setup();
    write(m, round[0]!, { [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: '{"score": 10, "mem": 5}' });
    write(m, round[1]!, { [EVAL_FILES.exitCode]: "1", [EVAL_FILES.output]: "Traceback\nZeroDivisionError\n" });
    write(m, round[2]!, { [EVAL_FILES.exitCode]: "0", [EVAL_FILES.stdout]: "no json here\n" });
    const r = await m.look(round);
    assert.deepEqual(r.values, { baseline: 10 });
    assert.deepEqual(r.metrics, { baseline: { mem: 5 } });
    assert.deepEqual(r.failed.map((f) => [f.measure, f.kind, f.jobId]), [
      ["candidate-1", "exit", null],
      ["candidate-2", "no-metric", null],
    ]);
    assert.equal(r.failed[0]!.cause, "eval command exited with code 1");
    assert.match(r.failed[0]!.message, /^measure candidate-1: Eval command exited with code 1\n--- last 2 line\(s\)/);
    assert.match(r.failed[0]!.message, /ZeroDivisionError/);
    assert.match(r.failed[1]!.cause, /^eval command gave no result/);
    // candidate-3 went out; nobody's job was cancelled
    assert.deepEqual(compute.submitted.map((s) => s.script), [join(m.evalDir(round[3]!), EVAL_FILES.script)]);
    assert.deepEqual(compute.cancelled, []);
    assert.deepEqual(r.pending, { jobIds: ["1000"], blind: false, soon: false });
    assert.deepEqual(r.jobIds, { "candidate-3": "1000" });
  });

  it("completes the look on a synchronous backend, the failure beside the values", async () => {
    const { m, compute } = setup();
    compute.onSubmit = (spec) =>
      spec.script!.includes("candidate-2") ? finishEvalJob(spec, null, 3) : finishEvalJob(spec, { score: 1 });
    const r = await m.look(round);
    assert.deepEqual(Object.keys(r.values).sort(), ["baseline", "candidate-1", "candidate-3"]);
    assert.deepEqual(r.failed.map((f) => [f.measure, f.kind, f.jobId]), [["candidate-2", "exit", "1002"]]);
    assert.equal(r.pending, null);
  });

  it(`sends a measure lost to causes that are nobody's code again ${MAX_RETRIES} times, then reports it lost`, async () => {
    const { m, compute } = setup();
    const [base] = [round[0]!];
    for (let i = 0; i <= MAX_RETRIES; i++) {
      const r = await m.look([base]);
      const job = r.jobIds["baseline"]!;
      assert.deepEqual(r.failed, [], `attempt ${i + 1}`);
      compute.states = new Map([[job, "PREEMPTED"]]);
    }
    const r = await m.look([base]);
    assert.deepEqual(r.failed.map((f) => [f.kind, f.jobId]), [["lost", "1002"]]);
    assert.match(r.failed[0]!.cause, /^job 1002 ended PREEMPTED without a result, and it was sent again 2 times/);
    assert.equal(compute.submitted.length, MAX_RETRIES + 1);
    assert.equal(readFileSync(join(m.evalDir(base), "retried"), "utf8"), "1000\n1001\n");
  });

  it("fails both measures of a pair job that ran on two hosts", async () => {
    const { m } = setup({ pairing: "same-job" });
    const pair = [measure("baseline"), measure("candidate")];
    for (const [x, host] of [[pair[0]!, "n1"], [pair[1]!, "n2"]] as const) {
      write(m, x, {
        [EVAL_FILES.submitted]: "7",
        [EVAL_FILES.result]: '{"score": 1}',
        [EVAL_FILES.provenance]: `host=${host}\n`,
        [EVAL_FILES.exitCode]: "0",
      });
    }
    const r = await m.look(pair);
    assert.deepEqual(r.values, {});
    assert.deepEqual(r.failed.map((f) => [f.measure, f.kind, f.jobId]), [
      ["baseline", "pair-hosts", "7"],
      ["candidate", "pair-hosts", "7"],
    ]);
    assert.match(r.failed[0]!.cause, /^pair 1: its same-job job's measures ran on different hosts/);
  });
});

describe("forgetFailed()", () => {
  it("sets a failed attempt aside so the next look sends it afresh, keeping the others' values", async () => {
    const { m, compute } = setup();
    const pair = round.slice(0, 2);
    write(m, pair[0]!, {
      [EVAL_FILES.submitted]: "5",
      [EVAL_FILES.exitCode]: "0",
      [EVAL_FILES.result]: '{"score": 1}',
    });
    write(m, pair[1]!, { [EVAL_FILES.submitted]: "6", [EVAL_FILES.exitCode]: "1", [EVAL_FILES.script]: "#!/bin/sh\n" });
    compute.live = new Map([[m.jobName(pair[1]!), []]]);
    const first = await m.look(pair);
    assert.equal(first.failed.length, 1);
    assert.deepEqual(m.forgetFailed(pair, first.failed), ["candidate-1"]);
    assert.equal(readFileSync(join(m.evalDir(pair[1]!), "attempt-1", EVAL_FILES.exitCode), "utf8"), "1");
    assert.equal(readFileSync(join(m.evalDir(pair[1]!), "forgotten"), "utf8"), "6\n");
    // the next look finds job 6 by name (the fake knows it was submitted) and does not adopt it
    compute.submitted.push({ jobName: m.jobName(pair[1]!), script: "", account: "", partition: "", timeMinutes: 1 });
    compute.submittedIds.push("6");
    const next = await m.look(pair);
    assert.deepEqual([next.values, next.failed], [{ "baseline": 1 }, []]);
    assert.equal(next.jobIds["candidate-1"], "1000", "sent afresh, not job 6 again");
  });
});
