import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { setLogSink } from "../../src/log.ts";
import { MeasureFailedError } from "../../src/measure/measure_failed.ts";
import { contractsFailure, endFailedRun } from "../../src/run/failed_run.ts";
import { readFailure } from "../../src/rundir/failure_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { wakeJobName } from "../../src/rundir/wake_record.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const NOW = Date.parse("2026-01-02T03:04:05Z");

function run(compute: "local" | "slurm") {
  const dir = new RunDir(join(tempDir("failed-run-"), "r1"));
  mkdirSync(dir.path);
  const r = runRecordFixture({ compute });
  writeRunRecord(dir, r);
  return { dir, r };
}

async function end(dir: RunDir, r: ReturnType<typeof runRecordFixture>, compute: FakeCompute, err: EvalError) {
  const lines: string[] = [];
  const restore = setLogSink((l) => lines.push(l));
  try {
    await endFailedRun(dir, r, { compute, now: () => NOW, env: {} }, err);
  } finally {
    restore();
  }
  return lines;
}

describe("endFailedRun()", () => {
  it("records the look's own facts of a MeasureFailedError in failure.json", async () => {
    const { dir, r } = run("local");
    const err = new MeasureFailedError(
      {
        measure: "baseline",
        jobId: "12",
        kind: "exit",
        cause: "eval command exited with code 1",
        message: "measure baseline: eval command exited with code 1",
      } as ConstructorParameters<typeof MeasureFailedError>[0],
    );
    await end(dir, r, new FakeCompute(), err);
    const f = readFailure(dir)!;
    assert.deepEqual([f.measure, f.jobId, f.cause, f.failedAt], [
      "baseline",
      "12",
      "eval command exited with code 1",
      "2026-01-02T03:04:05.000Z",
    ]);
    assert.equal(f.message, "measure baseline (job 12): eval command exited with code 1");
  });

  it("records what a plain EvalError's message names, and cancels nothing of a local run", async () => {
    const { dir, r } = run("local");
    const compute = new FakeCompute();
    await end(dir, r, compute, new EvalError("measure candidate: no result"));
    assert.equal(readFailure(dir)!.measure, "candidate");
    assert.deepEqual(compute.cancelled, []);
  });

  it("on a scheduler, cancels the run's other live jobs (its wake here) and says so", async () => {
    const { dir, r } = run("slurm");
    const compute = new FakeCompute();
    compute.live!.set(wakeJobName(r.runTag, dir), ["55"]);
    const lines = await end(dir, r, compute, new EvalError("measure candidate: no result"));
    assert.ok(readFailure(dir) !== null);
    assert.deepEqual(compute.cancelled, [["55"]]);
    assert.match(lines.join("\n"), /cancelled the run's 1 other queued or running job\(s\): 55/);
  });

  it("spares the job this process runs in", async () => {
    const { dir, r } = run("slurm");
    const compute = new FakeCompute();
    compute.live!.set(wakeJobName(r.runTag, dir), ["55"]);
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    try {
      await endFailedRun(
        dir,
        r,
        { compute, now: () => NOW, env: { SLURM_JOB_ID: "55" } },
        new EvalError("measure candidate: x"),
      );
    } finally {
      restore();
    }
    assert.deepEqual(compute.cancelled, []);
  });
});

describe("contractsFailure()", () => {
  const r = runRecordFixture({ contractPath: "/work/bench.json" });
  const noMetric = (measure: string, keys: string) => {
    const cause = `eval result has no metric "scroe" in the last line of stdout: keys present are ${keys}`;
    return {
      measure,
      jobId: "7",
      kind: "no-metric" as const,
      cause,
      message: `measure ${measure}: E${cause.slice(1)}\n--- last 1 line(s) of out.log ---\n{"score": 1, "wall": 2}`,
    };
  };

  it("names the key the contract most likely meant and the way on, a new run dir, on the first line", () => {
    const f = contractsFailure(r, noMetric("baseline", '"score", "wall"'));
    const [first, ...rest] = f.message.split("\n");
    assert.match(
      first!,
      /keys present are "score", "wall"; did you mean "score"\? The run keeps its contract in run\.json \(resume --retry-failed measures under it again\): fix the metric in "\/work\/bench\.json" and measure in a new --run-dir$/,
    );
    assert.deepEqual(rest, ["--- last 1 line(s) of out.log ---", '{"score": 1, "wall": 2}']);
    assert.equal(f.cause, noMetric("baseline", '"score", "wall"').cause);
  });

  it("says the way on without a guess when no key is close, and leaves a candidate's crash and other failures alone", () => {
    assert.doesNotMatch(contractsFailure(r, noMetric("baseline#2", '"wall"')).message, /did you mean/);
    assert.match(contractsFailure(r, noMetric("baseline#2", "none")).message, /measure in a new --run-dir/);
    const candidate = noMetric("candidate", '"score"');
    assert.equal(contractsFailure(r, candidate), candidate);
    const exit = { ...noMetric("baseline", '"score"'), kind: "exit" as const };
    assert.equal(contractsFailure(r, exit), exit);
  });
});
