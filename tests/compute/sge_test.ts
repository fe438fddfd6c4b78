import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SlurmError, SlurmQueryError, SubmitLimitError } from "../../src/compute/errors.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { SgeCompute } from "../../src/compute/sge.ts";
import { classifySge } from "../../src/compute/sge_transient.ts";
import { GONE } from "../../src/compute/states.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";

const fixture = (name: string) => readFileSync(join(import.meta.dirname!, "..", "fixtures", "sge", name), "utf8");
const EMPTY_QSTAT =
  "<?xml version='1.0'?>\n<job_info>\n  <queue_info>\n  </queue_info>\n  <job_info>\n  </job_info>\n</job_info>\n";
const DOWN =
  'error: commlib error: got select error (Connection refused)\nerror: unable to send message to qmaster using port 6444 on host "vm": got send error\n';

/** A runner answering by command (and whether `-s z` is asked), recording every argv. */
function scripted(answer: (argv: readonly string[]) => SpawnResult): { runner: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const runner: Runner = (argv) => {
    calls.push([...argv]);
    return Promise.resolve(answer(argv));
  };
  return { runner, calls };
}

/** A clock the waits move forward: the accounting lag passes without real time. */
function fakeTime() {
  let t = 1_000_000;
  return { now: () => t, sleep: (ms: number) => Promise.resolve(void (t += ms)), random: () => 0.5 };
}

const spec = { jobName: "eval-t-base", account: "a", partition: "", timeMinutes: 1, command: "true" };

describe("SgeCompute through a scripted runner", () => {
  it("submits through a wrapper qsub spools, and reads the id of a job and of an array", async () => {
    const { runner, calls } = scripted((a) => ok(a[0] === "qsub" && a.includes("-t") ? "21.1-10:1\n" : "4\n"));
    const c = new SgeCompute({ runner, user: "u", ...fakeTime() });
    assert.equal(await c.submit(spec), "4");
    assert.equal(await c.submitArray(spec, 10, 3), "21");
    const argv = calls[1]!;
    assert.deepEqual(argv.slice(argv.indexOf("-t"), argv.indexOf("-t") + 4), ["-t", "1-10", "-tc", "3"]);
    const wrapper = argv.find((w) => /outerloop-qsub-[^/]+\/wrapper\.sh$/.test(w))!;
    assert.deepEqual(argv.slice(argv.indexOf(wrapper) + 1), ["/bin/sh", "-c", "true"]);
    assert.equal(existsSync(wrapper), false, "the wrapper's temp dir is removed once qsub spooled it");
  });

  it("refuses a bad name before any command runs", async () => {
    const { runner, calls } = scripted(() => ok("4\n"));
    await assert.rejects(new SgeCompute({ runner, user: "u" }).submit({ ...spec, jobName: "1x" }), /cannot|digit/);
    assert.equal(calls.length, 0);
  });

  it("a qsub refusal is a SlurmError, never retried; max_u_jobs is a SubmitLimitError", async () => {
    const { runner, calls } = scripted(() => exited(1, "", fixture("qsub_bad_name.txt").split("rc=")[0]!));
    await assert.rejects(new SgeCompute({ runner, user: "u", ...fakeTime() }).submit(spec), SlurmError);
    assert.equal(calls.length, 1);
    const limited = scripted(() =>
      exited(1, "", "Unable to run job: job rejected: Only 10 jobs are allowed per user (current job count: 10)\n")
    );
    await assert.rejects(new SgeCompute({ runner: limited.runner, user: "u" }).submit(spec), SubmitLimitError);
  });

  it("a qsub that timed out is looked up by name before another try: one call makes at most one job", async () => {
    const { runner, calls } = scripted((a) =>
      a[0] === "qsub" ? { ...exited(1), exitCode: null, timedOut: true } : ok(
        a[0] === "qstat" && !a.includes("z")
          ? fixture("qstat_mixed.xml").replaceAll("fx-run", "eval-t-base")
          : EMPTY_QSTAT,
      )
    );
    assert.equal(await new SgeCompute({ runner, user: "u", ...fakeTime() }).submit(spec), "4");
    assert.equal(calls.filter((a) => a[0] === "qsub").length, 1);
  });

  it("one qstat -xml per listing: tasks as A_T from 0, never the text listing", async () => {
    const { runner, calls } = scripted(() => ok(fixture("qstat_mixed.xml")));
    const jobs = await new SgeCompute({ runner, user: "u" }).activeJobs();
    assert.deepEqual(calls, [["qstat", "-u", "u", "-xml"]]);
    assert.deepEqual(jobs.get("fx-arr")!.map((j) => j.id), ["3_0", "3_1", "3_2", "3_3", "3_4", "3_5"]);
    assert.equal(jobs.get("fx-held")![0]!.reason, "Dependency");
  });

  it("statuses: listed jobs live, accounted ones ended, one qacct bounded by -b", async () => {
    const acct = [fixture("qacct_ok.txt"), fixture("qacct_timeout.txt"), fixture("qacct_array.txt")].join("");
    const { runner, calls } = scripted((a) => ok(a[0] === "qacct" ? acct : fixture("qstat_mixed.xml")));
    const s = await new SgeCompute({ runner, user: "u", ...fakeTime() }).statuses(
      ["2", "8", "3_0", "4"],
      new Date(2026, 11, 1, 20, 0, 0),
    );
    assert.deepEqual([...s.entries()].sort(), [["2", "COMPLETED"], ["3_0", "COMPLETED"], ["4", "RUNNING"], [
      "8",
      "TIMEOUT",
    ]]);
    assert.deepEqual(calls.find((a) => a[0] === "qacct"), ["qacct", "-j", "-b", "202612012000.00"]);
  });

  it("a finished job without a record is 'not yet known' through the accounting lag, then CANCELLED (deleted while pending)", async () => {
    let qaccts = 0;
    const { runner } = scripted((a) => {
      if (a[0] === "qacct") return qaccts++, exited(1, "", "error: job id 10 not found\n");
      return ok(a.includes("z") ? fixture("qstat_zombies.xml") : EMPTY_QSTAT);
    });
    const c = new SgeCompute({ runner, user: "u", accountingLagMs: 10_000, ...fakeTime() });
    assert.equal(await c.status("10"), "CANCELLED");
    assert.ok(qaccts >= 5, `asked qacct ${qaccts} times through the lag`);
  });

  it("a record that lags arrives within the lag: its real end state, never CANCELLED", async () => {
    let qaccts = 0;
    const { runner } = scripted((a) => {
      if (a[0] === "qacct") return ++qaccts < 3 ? ok("") : ok(fixture("qacct_ok.txt"));
      return ok(
        a.includes("z") ? fixture("qstat_zombies.xml").replace("<JB_job_number>10<", "<JB_job_number>2<") : EMPTY_QSTAT,
      );
    });
    assert.equal(await new SgeCompute({ runner, user: "u", ...fakeTime() }).status("2"), "COMPLETED");
  });

  it("a job in neither the queue, the finished list nor qacct is GONE (absent from statuses)", async () => {
    const { runner } = scripted((a) =>
      a[0] === "qacct" ? exited(1, "", "error: job id 999 not found\n") : ok(EMPTY_QSTAT)
    );
    const c = new SgeCompute({ runner, user: "u", ...fakeTime() });
    assert.equal(await c.status("999"), GONE);
    assert.equal((await c.statuses(["999"])).size, 0);
  });

  it("a qmaster that is down is a SlurmQueryError after the retries (unknown), never GONE", async () => {
    const { runner, calls } = scripted(() => exited(1, "", DOWN));
    await assert.rejects(new SgeCompute({ runner, user: "u", ...fakeTime() }).activeJobs(), SlurmQueryError);
    assert.ok(calls.length > 1, "retried");
    assert.equal(classifySge(exited(1, "", DOWN)), "not-sent");
    assert.equal(classifySge(exited(1, "", 'denied: job "999" does not exist\n')), "final");
  });

  it("qdel: a task by -t T+1, plain ids and arrays in one call; an id GE no longer has is not an error", async () => {
    const { runner, calls } = scripted(() => exited(1, "", fixture("qdel_unknown.txt").split("rc=")[0]!));
    const c = new SgeCompute({ runner, user: "u", ...fakeTime() });
    await c.cancelMany(["5", "6", "7_0", "7_4"]);
    assert.deepEqual(calls, [["qdel", "5", "6"], ["qdel", "7", "-t", "1"], ["qdel", "7", "-t", "5"]]);
    await c.cancel("999");
  });

  it("usage from qacct: wall clock, the asked walltime, slots and CPU seconds", async () => {
    const { runner } = scripted(() => ok(fixture("qacct_ok.txt")));
    const u = (await new SgeCompute({ runner, user: "u" }).usage(["2"])).get("2")!;
    assert.deepEqual([u.state, u.elapsedS, u.timelimitS, u.allocCpus, u.totalCpuS], ["COMPLETED", 0, 60, 1, 0.066]);
  });

  it("maxArraySize and submitRoom from the global configuration", async () => {
    const conf = "max_aj_tasks                 75000\nmax_u_jobs                   0\n";
    const { runner } = scripted((a) => ok(a[0] === "qconf" ? conf : EMPTY_QSTAT));
    const c = new SgeCompute({ runner, user: "u" });
    assert.equal(await c.maxArraySize(), 75000);
    assert.equal(await c.submitRoom({ account: "a" }), null);
  });
});

function ok(stdout: string): SpawnResult {
  return exited(0, stdout);
}
