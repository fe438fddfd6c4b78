import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { attemptsOf, FORGOTTEN_FILE, RESTART_FILE, RETRIED_FILE, setAsideAttempt } from "../../src/measure/attempts.ts";
import { tempDir } from "../helpers/temp.ts";

/** An eval dir an attempt ran in as `jobId`: marker, start, output, exit code. */
function ranAs(dir: string, jobId: string, exitCode = "143"): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, EVAL_FILES.script), "#!/bin/sh\n");
  writeFileSync(join(dir, EVAL_FILES.submitted), jobId);
  writeFileSync(join(dir, EVAL_FILES.started), "2026-01-01T00:00:00Z node1\n");
  writeFileSync(join(dir, EVAL_FILES.output), `attempt of ${jobId}\n`);
  writeFileSync(join(dir, EVAL_FILES.exitCode), exitCode);
}

describe("setAsideAttempt()", () => {
  it("moves an attempt's files into attempt-<n>/, lists its job, and removes the markers last", () => {
    const root = tempDir("attempts-");
    const [a, b] = [join(root, "eval-a"), join(root, "eval-b")];
    const unitMarker = join(root, "pair1-x", "submitted");
    mkdirSync(join(root, "pair1-x"));
    writeFileSync(unitMarker, "7_0");
    ranAs(a, "7_0");
    ranAs(b, "7_0", "0");
    setAsideAttempt([a, b], unitMarker, "7_0", "retried", "job 7_0 ended PREEMPTED\nmore");
    for (const dir of [a, b]) {
      assert.equal(readFileSync(join(dir, RETRIED_FILE), "utf8"), "7_0\n");
      assert.equal(existsSync(join(dir, EVAL_FILES.submitted)), false);
      assert.equal(existsSync(join(dir, EVAL_FILES.exitCode)), false);
      assert.ok(existsSync(join(dir, EVAL_FILES.script)), "the job script stays: the next dispatch writes it anew");
      assert.equal(readFileSync(join(dir, "attempt-1", EVAL_FILES.output), "utf8"), "attempt of 7_0\n");
      assert.equal(readFileSync(join(dir, "attempt-1", "why"), "utf8"), "job 7_0 ended PREEMPTED\n");
    }
    assert.equal(existsSync(unitMarker), false);
    // the next attempt is numbered after it; a forgotten one goes to its own list
    ranAs(a, "9");
    setAsideAttempt([a], null, "9", "forgotten", "eval command exited with code 1");
    assert.deepEqual(attemptsOf(a).map((x) => [x.n, x.jobId]), [[1, "7_0"], [2, "9"]]);
    assert.equal(readFileSync(join(a, FORGOTTEN_FILE), "utf8"), "9\n");
    assert.equal(readFileSync(join(a, RETRIED_FILE), "utf8"), "7_0\n");
  });

  it("is idempotent: a pass that died half-way sets the rest aside into the same attempt", () => {
    const root = tempDir("attempts-");
    const a = join(root, "eval-a");
    ranAs(a, "5");
    setAsideAttempt([a], null, "5", "retried", "x");
    // as if the first pass had died before moving output.log and removing the marker
    writeFileSync(join(a, EVAL_FILES.submitted), "5");
    writeFileSync(join(a, EVAL_FILES.slurmOut), "late\n");
    setAsideAttempt([a], null, "5", "retried", "x");
    assert.deepEqual(attemptsOf(a).map((x) => x.n), [1]);
    assert.equal(readFileSync(join(a, "attempt-1", EVAL_FILES.slurmOut), "utf8"), "late\n");
    assert.equal(readFileSync(join(a, RETRIED_FILE), "utf8"), "5\n");
  });

  it("never sets a pass's attempt aside into one the eval script kept of a requeue of the same job", () => {
    const root = tempDir("attempts-");
    const a = join(root, "eval-a");
    mkdirSync(join(a, "attempt-1"), { recursive: true });
    writeFileSync(join(a, "attempt-1", "job"), "266\n");
    writeFileSync(join(a, "attempt-1", RESTART_FILE), "1\n");
    writeFileSync(join(a, "attempt-1", EVAL_FILES.output), "the requeued attempt\n");
    ranAs(a, "266"); // the job's run after the requeue, which then ended CANCELLED
    setAsideAttempt([a], null, "266", "retried", "job 266 ended CANCELLED by 0");
    assert.deepEqual(attemptsOf(a).map((x) => [x.n, x.jobId, x.requeued]), [[1, "266", true], [2, "266", false]]);
    assert.equal(readFileSync(join(a, "attempt-1", EVAL_FILES.output), "utf8"), "the requeued attempt\n");
    assert.equal(readFileSync(join(a, "attempt-2", EVAL_FILES.output), "utf8"), "attempt of 266\n");
  });
});
