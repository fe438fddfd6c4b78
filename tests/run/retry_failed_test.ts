import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { type JobSpec, withDefaults } from "../../src/compute/job_spec.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { BadInputError } from "../../src/errors.ts";
import { setLogSink } from "../../src/log.ts";
import { runPhase } from "../../src/run/phase.ts";
import { retryFailedRun } from "../../src/run/retry_failed.ts";
import { readFailure } from "../../src/rundir/failure_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

// resume --retry-failed end to end (the cause fixed, the run decided): tests/run/phase_crash_test.ts.

const measureOf = (spec: JobSpec) =>
  /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(basename(dirname(withDefaults(spec).script)))![1]!;

/** A run whose baseline#2 eval exits 1: the run fails. */
async function failedRun() {
  const r = runRecordFixture({}, { repeats: 2, max_repeats: 2, min_effect: 1 });
  const dir = new RunDir(join(tempDir("retry-failed-"), "r"));
  writeRunRecord(dir, r);
  const compute = new FakeCompute();
  compute.onSubmit = (spec) => {
    if (!spec.jobName.startsWith("eval-")) return;
    const m = measureOf(spec);
    if (m === "baseline#2") finishEvalJob(spec, null, 1);
    else finishEvalJob(spec, { score: m.startsWith("candidate") ? 13 : 10 });
  };
  const deps = { compute, self: ["/bin/outerloop"], now: () => Date.parse("2026-01-02T04:00:00Z"), env: {} };
  await quiet(() => assert.rejects(runPhase(dir, deps), EvalError));
  return { dir, r, deps };
}

async function quiet<T>(fn: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const restore = setLogSink((l) => lines.push(l));
  try {
    return { value: await fn(), lines };
  } finally {
    restore();
  }
}

describe("retryFailedRun()", () => {
  it("sets the failed measure's attempt aside and moves the failure into the history", async () => {
    const { dir, r, deps } = await failedRun();
    assert.equal(readFailure(dir)?.measure, "baseline#2");
    const { value, lines } = await quiet(() => retryFailedRun(dir, r, deps));
    assert.deepEqual(value, ["baseline#2"]);
    assert.equal(readFailure(dir), null);
    const history = JSON.parse(readFileSync(dir.failureHistory, "utf8")).failures;
    assert.deepEqual(history.map((h: { measure: string }) => h.measure), ["baseline#2"]);
    assert.match(lines.join("\n"), /retrying the run: baseline#2 set aside \(their attempts kept\) and sent again/);
  });

  it("refuses a run that has not failed, changing nothing", async () => {
    const r = runRecordFixture({}, { repeats: 2, max_repeats: 2 });
    const dir = new RunDir(join(tempDir("retry-failed-"), "r"));
    writeRunRecord(dir, r);
    const deps = { compute: new FakeCompute(), self: [], now: () => 0, env: {} };
    await assert.rejects(
      retryFailedRun(dir, r, deps),
      (err: Error) => err instanceof BadInputError && /has not failed \(it is parked\)/.test(err.message),
    );
    assert.equal(existsSync(dir.failureHistory), false);
  });
});
