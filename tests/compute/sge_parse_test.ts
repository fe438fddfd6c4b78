import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  endState,
  lastRecords,
  liveJobs,
  liveState,
  parseQacct,
  parseQstatXml,
  parseQsubId,
  recordRef,
  sizeBytes,
  wallclockSeconds,
} from "../../src/compute/sge_parse.ts";

/** Output recorded from Son of Grid Engine 8.1.9 (tests/fixtures/sge/README.md says how). */
const fixture = (name: string) => readFileSync(join(import.meta.dirname!, "..", "fixtures", "sge", name), "utf8");

describe("qsub -terse", () => {
  it("prints a job's id, or an array's as A.1-N:1 whose id is A", () => {
    assert.equal(parseQsubId(fixture("qsub_plain.txt")), "2");
    assert.equal(parseQsubId(fixture("qsub_array.txt")), "3");
    assert.equal(parseQsubId('Your job 4 ("x") has been submitted\n'), null);
    assert.equal(parseQsubId(""), null);
  });
});

describe("qstat -xml", () => {
  const rows = parseQstatXml(fixture("qstat_mixed.xml"));

  it("lists every job with its full name (the text listing cuts names at 10 characters)", () => {
    assert.deepEqual(
      rows.map((r) => [r.jobNumber, r.name, r.state]),
      [
        ["3", "fx-arr", "r"],
        ["3", "fx-arr", "r"],
        ["4", "fx-run", "r"],
        ["7", "fx-exit100", "Eqw"],
        ["6", "fx-exit99", "Rq"],
        ["11", "fx-gpu9", "qw"],
        ["3", "fx-arr", "qw"],
        ["9", "fx-held", "hqw"],
        ["10", "fx-delpend", "hqw"],
      ],
    );
  });

  it("maps GE's states to outerloop's: waiting, held, running, rescheduled, error, deleting", () => {
    assert.deepEqual(liveState("qw"), { state: "PENDING", reason: "Resources" });
    assert.deepEqual(liveState("hqw"), { state: "PENDING", reason: "Dependency" });
    assert.deepEqual(liveState("r"), { state: "RUNNING", reason: "None" });
    assert.deepEqual(liveState("t"), { state: "RUNNING", reason: "None" });
    assert.equal(liveState("Rq").state, "PENDING");
    assert.equal(liveState("Rr").state, "RUNNING");
    assert.equal(liveState("Eqw").state, "PENDING");
    assert.match(liveState("Eqw").reason, /Eqw/);
    assert.equal(liveState("dr").state, "COMPLETING");
    assert.equal(liveState("s").state, "SUSPENDED");
  });

  it("gives array tasks outerloop's A_T from 0: GE's task 1 is A_0, a pending range is expanded", () => {
    const arr = liveJobs(rows).get("fx-arr")!;
    assert.deepEqual(arr.map((j) => [j.id, j.taskId, j.state]), [
      ["3_0", 0, "RUNNING"],
      ["3_1", 1, "RUNNING"],
      ["3_2", 2, "PENDING"],
      ["3_3", 3, "PENDING"],
      ["3_4", 4, "PENDING"],
      ["3_5", 5, "PENDING"],
    ]);
    assert.ok(arr.every((j) => j.arrayId === "3"));
    assert.equal(arr[0]!.partition, "all.q");
    const plain = liveJobs(rows).get("fx-run")![0]!;
    assert.deepEqual([plain.id, plain.arrayId, plain.taskId], ["4", null, null]);
  });

  it("reads -g d (a row per pending task) to the same tasks", () => {
    const expanded = liveJobs(parseQstatXml(fixture("qstat_mixed_gd.xml"))).get("fx-arr")!;
    assert.deepEqual(expanded.map((j) => j.id), ["3_0", "3_1", "3_2", "3_3", "3_4", "3_5"]);
  });

  it("reads the finished list (-s z): a job and an array task deleted while pending are there", () => {
    const z = liveJobs(parseQstatXml(fixture("qstat_zombies.xml")));
    assert.deepEqual(z.get("fx-delpend")!.map((j) => j.id), ["10"]);
    assert.ok(z.get("fx-arr")!.some((j) => j.id === "3_5"));
  });

  it("refuses text that is not a qstat answer", () => {
    assert.throws(() => parseQstatXml("error: commlib error"), SyntaxError);
    assert.deepEqual(parseQstatXml("<?xml version='1.0'?><job_info><queue_info></queue_info></job_info>"), []);
  });
});

describe("qacct -j", () => {
  const one = (name: string) => {
    const r = parseQacct(fixture(name));
    assert.ok(r.length > 0, name);
    return r.at(-1)!;
  };

  it("a clean exit is COMPLETED, a non-zero one FAILED", () => {
    assert.equal(endState(one("qacct_ok.txt")), "COMPLETED");
    const three = one("qacct_exit3.txt");
    assert.deepEqual([three.failed, three.exitStatus, endState(three)], [0, 3, "FAILED"]);
  });

  it("failed 37 (h_rt) is TIMEOUT; failed 100 after a qdel of a running job is CANCELLED", () => {
    const t = one("qacct_timeout.txt");
    assert.deepEqual([t.failed, t.exitStatus, endState(t)], [37, 137, "TIMEOUT"]);
    assert.match(t.failedText, /h_rt/);
    assert.equal(endState(one("qacct_deleted_running.txt")), "CANCELLED");
  });

  it("exit 99 (failed 25, rescheduled: several records) and exit 100 (failed 30, Eqw) end nothing by themselves", () => {
    const resched = parseQacct(fixture("qacct_resched.txt"));
    assert.ok(resched.length >= 2, "a rescheduled job has a record per run");
    assert.ok(resched.every((r) => r.failed === 25 && r.exitStatus === 99));
    assert.equal(lastRecords(resched).size, 1);
    assert.equal(endState(resched.at(-1)!), null);
    const eqw = one("qacct_eqw.txt");
    assert.deepEqual([eqw.failed, eqw.exitStatus, endState(eqw)], [30, 100, null]);
  });

  it("an array has a record per task, as A_T from 0; a task deleted while pending has none", () => {
    const refs = parseQacct(fixture("qacct_array.txt")).map(recordRef).sort();
    assert.deepEqual(refs, ["3_0", "3_1", "3_2", "3_3", "3_4"]);
  });

  it("a job deleted while pending has no record (qacct says not found)", () => {
    assert.deepEqual(parseQacct(fixture("qacct_deleted_pending.txt")), []);
    assert.match(fixture("qacct_deleted_pending.txt"), /job id 10 not found/);
  });

  it("reads the wall clock and sizes", () => {
    assert.equal(wallclockSeconds(one("qacct_ok.txt")), 0);
    assert.equal(sizeBytes("4.520KB"), 4628);
    assert.equal(sizeBytes("0.000B"), 0);
    assert.equal(sizeBytes("-"), null);
  });
});
