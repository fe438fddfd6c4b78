import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RunCancelledError, writeCancel } from "../../src/rundir/cancel_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { type RunRecord, writeRunRecord } from "../../src/rundir/run_record.ts";
import { runPhase } from "../../src/run/phase.ts";
import { standingOf } from "../../src/evaluation/standing.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

/**
 * A cancel that comes while a pass is measuring (a local run measures for
 * minutes or hours under one lock) wins over whatever the pass reaches after
 * it: no verdict or calibration is written, no eval failure is recorded, and
 * nothing more is dispatched.
 */

const deps = (compute: FakeCompute) => ({ compute, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });

function newRun(over: Partial<RunRecord> = {}, contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("phase-cancel-"), "climb", "r1"));
  mkdirSync(dir.path, { recursive: true });
  const r = runRecordFixture({ createdAt: new Date().toISOString(), compute: "local", ...over }, contract);
  writeRunRecord(dir, r);
  return { dir, r };
}

const cancelNow = (dir: RunDir) => writeCancel(dir, { cancelledAt: new Date().toISOString(), jobs: [] });
const evals = (c: FakeCompute) => c.submitted.filter((s) => s.jobName.startsWith("eval-"));

describe("a pass the user cancels while it measures", () => {
  it("does not write the verdict it reaches after the cancel (RunCancelledError, exit 3)", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => {
      // the cancel comes while the last eval runs; that eval still delivers its result
      if (evals(compute).length === 2) cancelNow(dir);
      finishEvalJob(spec, { score: score++ });
    };
    await assert.rejects(
      runPhase(dir, deps(compute)),
      (e: unknown) =>
        e instanceof RunCancelledError && /the accept this pass reached after it is not written/.test(e.message),
    );
    assert.equal(existsSync(dir.decision), false, "no decision.json");
    assert.equal(existsSync(dir.failure), false, "no failure.json");
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "cancelled");
  });

  it("does not write the calibration it reaches after the cancel", async () => {
    const { dir } = newRun({ kind: "calibrate", candidateSha: "a".repeat(40) }, { repeats: 2, max_repeats: 2 });
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => {
      if (evals(compute).length === 4) cancelNow(dir);
      finishEvalJob(spec, { score: score++ });
    };
    await assert.rejects(runPhase(dir, deps(compute)), /the calibration this pass reached after it is not written/);
    assert.equal(existsSync(dir.calibration), false, "no calibration.json");
  });

  it("reports an eval the cancel stopped as the cancel, not as an eval failure (no failure.json)", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    compute.onSubmit = (spec, id) => {
      if (evals(compute).length < 2) return finishEvalJob(spec, { score: 10 });
      // the cancel stops the candidate's eval: it ends without a result (INT: nothing recorded)
      cancelNow(dir);
      compute.states!.set(id, "FAILED");
    };
    await assert.rejects(
      runPhase(dir, deps(compute)),
      (e: unknown) =>
        e instanceof RunCancelledError && /was cancelled by user on .*, which stopped this pass: /.test(e.message) &&
        /measure candidate: /.test(String((e.cause as Error)?.message)),
    );
    assert.equal(existsSync(dir.failure), false, "a stopped eval is not an eval failure");
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "cancelled");
  });

  it("dispatches nothing once the cancel is on disk, even mid-look", async () => {
    const { dir } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => {
      finishEvalJob(spec, { score: score++ });
      cancelNow(dir); // between the baseline's end and the candidate's start
    };
    await assert.rejects(runPhase(dir, deps(compute)), /while this pass measured it: nothing more is dispatched/);
    assert.equal(evals(compute).length, 1);
  });
});
