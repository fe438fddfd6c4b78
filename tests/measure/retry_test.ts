import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { ARRAY_FILES, readArrayJobs } from "../../src/dispatch/array_job.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { look, setup, submissionsPerScript } from "../helpers/arrays_measurer.ts";
import { pendingOf } from "../helpers/pending.ts";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cancelledBy, MAX_RETRIES, nextRetry, nobodysCode, retryNumber } from "../../src/measure/retry.ts";
import { tempDir } from "../helpers/temp.ts";

describe("retry", () => {
  it("sends again the ends that are nobody's code, and only those", () => {
    for (const s of ["CANCELLED", "CANCELLED by 1000", "PREEMPTED", "REQUEUED", "NODE_FAIL", "BOOT_FAIL"]) {
      assert.ok(nobodysCode(s), s);
    }
    for (const s of ["FAILED", "TIMEOUT", "OUT_OF_MEMORY", "COMPLETED", "DEADLINE", "", "GONE"]) {
      assert.ok(!nobodysCode(s), s);
    }
  });

  it("knows a task outerloop cancelled by its own id or by its array's", () => {
    const ours = new Set(["84", "90_2"]);
    assert.ok(cancelledBy(ours, "84_0"));
    assert.ok(cancelledBy(ours, "84"));
    assert.ok(cancelledBy(ours, "90_2"));
    assert.ok(!cancelledBy(ours, "90_1"));
    assert.ok(!cancelledBy(ours, "841_0"));
  });

  it(`allows ${MAX_RETRIES} retries, the job being judged not counted against itself`, () => {
    assert.equal(nextRetry([], "1"), 1);
    assert.equal(nextRetry(["1"], "2"), 2);
    assert.equal(nextRetry(["1", "2"], "2"), 2, "a pass that died after listing it asks again");
    assert.equal(nextRetry(["1", "2"], "3"), null);
  });

  it("says from an eval dir which retry an end earns (what show prints)", () => {
    const dir = tempDir("retry-");
    assert.equal(retryNumber([dir], dir, "5", "PREEMPTED"), 1);
    assert.equal(retryNumber([dir], dir, "5", "FAILED"), null);
    writeFileSync(join(dir, "retried"), "3\n4\n");
    assert.equal(retryNumber([dir], dir, "5", "NODE_FAIL"), null);
  });
});

describe("retries with arrays on", () => {
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
});
