import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES, evalDirPath } from "../../src/dispatch/eval_files.ts";
import { setAsideAttempt } from "../../src/measure/attempts.ts";
import { slot } from "../../src/measure/identity.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { earlierAttempts, formatEarlierAttempts } from "../../src/views/earlier_attempts.ts";
import { tempDir } from "../helpers/temp.ts";

const measure = (name: string): Measure => ({
  name,
  treeSha: "a".repeat(40),
  command: "true",
  metric: "score",
  extraEnv: [],
  gpus: 0,
});

describe("earlierAttempts()", () => {
  it("names each measure's set-aside attempts — sent again, and requeued by the scheduler — with job, host and why", () => {
    const dir = new RunDir(tempDir("attempts-view-"));
    const [base, cand] = [measure("baseline"), measure("candidate")];
    const evalDir = evalDirPath(dir.path, slot("", base));
    mkdirSync(evalDir, { recursive: true });
    // a job its node took down, requeued by the scheduler: the eval script kept it
    const requeued = join(evalDir, "attempt-1");
    mkdirSync(requeued);
    writeFileSync(join(requeued, "job"), "41\n");
    writeFileSync(join(requeued, "restart"), "1\n");
    writeFileSync(join(requeued, EVAL_FILES.started), "2026-12-03T10:00:00Z tbnode2\n");
    const words =
      "the scheduler requeued job 41 and ran it again (restart 1); its attempt on tbnode2 left no exit code: " +
      "its node was lost, or it was killed outright";
    writeFileSync(join(requeued, "why"), `${words}\n`);
    // then that run was cancelled by someone else and sent again by a pass
    writeFileSync(join(evalDir, EVAL_FILES.submitted), "41");
    writeFileSync(join(evalDir, EVAL_FILES.started), "2026-12-03T10:02:00Z tbnode1\n");
    setAsideAttempt([evalDir], null, "41", "retried", "job 41 ended CANCELLED by 0");
    const out = earlierAttempts(dir, "", [base, cand]);
    assert.deepEqual(Object.keys(out), ["baseline"], "a measure with no attempt is left out");
    assert.deepEqual(out["baseline"], [
      { n: 1, jobId: "41", host: "tbnode2", requeued: true, why: words },
      { n: 2, jobId: "41", host: "tbnode1", requeued: false, why: "job 41 ended CANCELLED by 0" },
    ]);
    assert.equal(
      formatEarlierAttempts(out),
      "earlier attempts (kept in each eval dir's attempt-<n>/; a value is its last attempt's):\n" +
        `  baseline: job 41 on tbnode2: ${words}\n` +
        "  baseline: job 41 on tbnode1: job 41 ended CANCELLED by 0\n",
    );
  });
});
