import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { InvalidJobIdError } from "../../src/compute/compute.ts";
import { SlurmError, SlurmQueryError } from "../../src/compute/errors.ts";
import { makeSubprocessRunner, type Runner } from "../../src/compute/runner.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { GONE } from "../../src/compute/states.ts";
import { setLogSink } from "../../src/log.ts";

const spec = { jobName: "j", account: "a", partition: "", timeMinutes: 1, command: "true" };

/** A runner that answers from a script and records every argv. */
function scripted(answer: (argv: readonly string[]) => SpawnResult | Error): { runner: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const runner: Runner = (argv) => {
    calls.push([...argv]);
    const a = answer(argv);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  return { runner, calls };
}
const ok = (stdout: string): SpawnResult => exited(0, stdout);
/** Retries without waiting: every test here is instant. */
const instant = { sleep: async () => {}, random: () => 0.5 };

describe("SlurmCompute through a scripted runner", () => {
  it("submits and reads the id, with or without a cluster suffix", async () => {
    for (const out of ["4242\n", "4242;cluster\n"]) {
      const { runner, calls } = scripted(() => ok(out));
      assert.equal(await new SlurmCompute({ runner, ...instant }).submit(spec), "4242");
      assert.equal(calls[0]![0], "sbatch");
    }
  });

  it("raises SlurmError with sbatch's stderr when it fails", async () => {
    const { runner } = scripted(() => exited(1, "", "sbatch: error: Invalid account\n"));
    await assert.rejects(
      new SlurmCompute({ runner, ...instant }).submit(spec),
      (e: unknown) => e instanceof SlurmError && e.message === "sbatch failed (1): sbatch: error: Invalid account",
    );
  });

  it("raises SlurmError for output that is not a job id", async () => {
    const { runner } = scripted(() => ok("Submitted batch job\n"));
    await assert.rejects(
      new SlurmCompute({ runner, ...instant }).submit(spec),
      /sbatch returned no job id: "Submitted batch job"/,
    );
  });

  it("raises SlurmError when sbatch cannot run or times out", async () => {
    const { runner } = scripted(() => new Error("not found"));
    await assert.rejects(
      new SlurmCompute({ runner, ...instant }).submit(spec),
      (e: unknown) => e instanceof SlurmError && e.message === "sbatch did not run: not found",
    );
    // a timed-out sbatch may have submitted: with the queue unreadable too, it is not run again
    const slow = scripted(() => ({ ...exited(0, "12\n"), exitCode: null, signal: "SIGKILL", timedOut: true }));
    await assert.rejects(
      new SlurmCompute({ ...instant, runner: slow.runner, commandTimeoutMs: 5000, ...instant }).submit(spec),
      (e: unknown) =>
        e instanceof SlurmError &&
        e.message.startsWith("sbatch did not finish within 5 s; whether job j was submitted cannot be told (squeue"),
    );
    assert.equal(slow.calls.filter((c) => c[0] === "sbatch").length, 1);
  });

  it("reads a timed-out query as unknown (SlurmQueryError), never as an answer", async () => {
    const slow = scripted(() => ({ ...exited(0, "COMPLETED\n"), timedOut: true }));
    await assert.rejects(
      new SlurmCompute({ ...instant, runner: slow.runner, ...instant }).status("7"),
      SlurmQueryError,
    );
  });

  it("reads the state, GONE only for a successful empty answer", async () => {
    assert.equal(
      await new SlurmCompute({ ...instant, runner: scripted(() => ok("CANCELLED by 0\n")).runner }).status("7"),
      "CANCELLED by 0",
    );
    assert.equal(await new SlurmCompute({ ...instant, runner: scripted(() => ok("")).runner }).status("7"), GONE);
    assert.equal(await new SlurmCompute({ ...instant, runner: scripted(() => ok("\n \n")).runner }).status("7"), GONE);
  });

  it("raises SlurmQueryError, never GONE, when sacct fails or does not run", async () => {
    const failed = scripted(() => exited(1, "", "slurmdbd down")).runner; // unknown text: final, not retried
    await assert.rejects(
      new SlurmCompute({ ...instant, runner: failed }).status("7"),
      (e: unknown) => e instanceof SlurmQueryError && /slurmdbd down/.test(e.message),
    );
    const threw = scripted(() => new Error("timed out")).runner;
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).status("7"), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).elapsedSeconds("7"), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).pendingReason("7"), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).jobPartition("7"), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).activeJobNames(), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).jobIdForName("n"), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).activeJobs(), SlurmQueryError);
    await assert.rejects(new SlurmCompute({ ...instant, runner: threw }).statuses(["1"]), SlurmQueryError);
  });

  it("refuses a non-numeric job id before any command runs", async () => {
    const { runner, calls } = scripted(() => ok(""));
    const c = new SlurmCompute({ runner, ...instant });
    for (const bad of ["", "12a", "1;rm", "-1", "1 2"]) {
      await assert.rejects(c.status(bad), InvalidJobIdError);
      await assert.rejects(c.elapsedSeconds(bad), InvalidJobIdError);
      await assert.rejects(c.pendingReason(bad), InvalidJobIdError);
      await assert.rejects(c.jobPartition(bad), InvalidJobIdError);
      await assert.rejects(c.cancel(bad), InvalidJobIdError);
      await assert.rejects(c.statuses(["1", bad]), InvalidJobIdError);
    }
    assert.equal(calls.length, 0);
  });

  it("reads elapsed seconds, null without a record", async () => {
    assert.equal(
      await new SlurmCompute({ ...instant, runner: scripted(() => ok("00:01:05\n")).runner }).elapsedSeconds("7"),
      65,
    );
    assert.equal(
      await new SlurmCompute({ ...instant, runner: scripted(() => ok("")).runner }).elapsedSeconds("7"),
      null,
    );
  });

  it("finds a job id by name and all live jobs with one squeue", async () => {
    const byName = scripted(() => ok("11\n12\n"));
    assert.equal(await new SlurmCompute({ ...instant, runner: byName.runner }).jobIdForName("n"), "11");
    assert.deepEqual(byName.calls[0], ["squeue", "--me", "--name", "n", "--noheader", "-o", "%i"]);
    const line = (...fields: string[]) => fields.join("\x1f") + "\n";
    const all = scripted(() =>
      ok(
        line("11", "PENDING", "Dependency", "cpu", "/runs/r1/eval-a/job.sh", "n") +
          line("12", "RUNNING", "None", "gpu", "(null)", "n") + line("13", "PENDING", "Priority", "cpu", "/s.sh", "m"),
      )
    );
    const jobs = await new SlurmCompute({ ...instant, runner: all.runner }).activeJobs();
    assert.deepEqual([...jobs].map(([name, js]) => [name, js.map((j) => j.id)]), [["n", ["11", "12"]], ["m", ["13"]]]);
    assert.equal(jobs.get("n")![0]!.script, "/runs/r1/eval-a/job.sh");
    assert.deepEqual(jobs.get("n")![1], {
      id: "12",
      arrayId: null,
      taskId: null,
      name: "n",
      state: "RUNNING",
      reason: "None",
      partition: "gpu",
      script: "",
    });
    assert.deepEqual(all.calls, [["squeue", "--me", "-r", "--noheader", "-o", "%i\x1f%T\x1f%r\x1f%P\x1f%o\x1f%j"]]);
  });

  it("queries many states in one bounded sacct", async () => {
    const { runner, calls } = scripted(() => ok("1|COMPLETED\n2|TIMEOUT\n"));
    const states = await new SlurmCompute({ runner, ...instant }).statuses(
      ["1", "2", "3"],
      new Date(2026, 0, 2, 3, 4, 5),
    );
    assert.deepEqual([...states], [["1", "COMPLETED"], ["2", "TIMEOUT"]]);
    assert.deepEqual(calls, [[
      "sacct",
      "-j",
      "1,2,3",
      "--parsable2",
      "--noheader",
      "-X",
      "-o",
      "JobID,State",
      "-S",
      "2026-01-02T03:04:05",
    ]]);
  });

  it("asks how often jobs were requeued in one bounded sacct -D, answering only for the ids asked", async () => {
    const { runner, calls } = scripted(() => ok("7_1|REQUEUED\n7_1|FAILED\n7_0|COMPLETED\n7|REQUEUED\n"));
    const requeues = await new SlurmCompute({ runner, ...instant }).requeues(
      ["7_1", "7_0"],
      new Date(2026, 0, 2, 3, 4, 5),
    );
    assert.deepEqual([...requeues], [["7_1", 1]]);
    assert.deepEqual(calls, [[
      "sacct",
      "-j",
      "7",
      "--parsable2",
      "--noheader",
      "-X",
      "-D",
      "-o",
      "JobID,State",
      "-S",
      "2026-01-02T03:04:05",
    ]]);
  });

  it("cancelMany() retries a transient scancel failure like every other verb, then cancels with one scancel", async () => {
    const timedOut = "scancel: error: Socket timed out on send/recv operation";
    let n = 0;
    const { runner, calls } = scripted(() => (++n === 1 ? exited(1, "", timedOut) : ok("")));
    await new SlurmCompute({ runner, ...instant }).cancelMany(["11", "12"]);
    assert.deepEqual(calls, [["scancel", "11", "12"], ["scancel", "11", "12"]]);
  });

  it("cancelMany() gives up as SlurmError after its tries, and at once on a refusal", async () => {
    const down = scripted(() => exited(1, "", "scancel: error: Unable to contact slurm controller (connect failure)"));
    await assert.rejects(
      new SlurmCompute({ runner: down.runner, ...instant }).cancelMany(["11"]),
      (e: unknown) =>
        e instanceof SlurmError &&
        /^scancel failed \(1\): .*connect failure\) \(gave up after 4 tries\)$/.test(e.message),
    );
    assert.equal(down.calls.length, 4);
    const refused = scripted(() => exited(1, "", "scancel: error: Access/permission denied"));
    await assert.rejects(new SlurmCompute({ runner: refused.runner, ...instant }).cancelMany(["11"]), SlurmError);
    assert.equal(refused.calls.length, 1);
  });

  it("logs a failed cancel instead of throwing", async () => {
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    try {
      await new SlurmCompute({ ...instant, runner: scripted(() => exited(1, "", "boom")).runner }).cancel(
        "7",
      );
      await new SlurmCompute({ ...instant, runner: scripted(() => new Error("gone")).runner }).cancel("7");
    } finally {
      restore();
    }
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /scancel 7 failed \(1\): boom/);
  });
});

describe("SlurmCompute through fake scheduler executables on PATH", () => {
  const fakebin = join(import.meta.dirname!, "..", "fixtures", "fakebin");
  /** A SlurmCompute over the fake scheduler in one mode; a hanging one gets a single try (each costs the timeout). */
  function compute(mode: string, out = "", timeoutMs = 5000) {
    const log = join(tempDir("fakeslurm-"), "argv.log");
    const env = {
      PATH: `${fakebin}:/usr/bin:/bin`,
      OUTERLOOP_FAKE_SLURM_MODE: mode,
      OUTERLOOP_FAKE_SLURM_OUT: out,
      OUTERLOOP_FAKE_SLURM_LOG: log,
      SBATCH_PARTITION: "leak",
      SLURM_JOB_ID: "1",
      SLURM_CONF: "/x",
    };
    const c = new SlurmCompute({
      ...instant,
      runner: makeSubprocessRunner(() => env),
      commandTimeoutMs: timeoutMs,
      ...instant,
    });
    return { c, argvLog: () => readFileSync(log, "utf8") };
  }

  it("submits through a real sbatch executable and reads its id", async () => {
    const { c, argvLog } = compute("ok", "77\\n");
    assert.equal(await c.submit({ ...spec, command: "echo 'a b'" }), "77");
    // one line: the argv, and no `leaked` line for SBATCH_PARTITION / SLURM_JOB_ID
    assert.match(argvLog(), /^sbatch \[--parsable\] \[--job-name=j\].* \[--wrap=echo 'a b'\]\n$/);
  });

  it("turns a failing, hanging, garbled or silent sbatch into SlurmError", async () => {
    await assert.rejects(
      compute("fail").c.submit(spec),
      /^SlurmError: sbatch failed \(1\): sbatch: error: Unable to contact .* \(gave up after 4 tries\)$/,
    );
    await assert.rejects(compute("hang", "", 300).c.submit(spec), /sbatch did not finish within 300 ms; whether job j/);
    // garbage and silence from sbatch and squeue alike: nothing found twice, so it was tried again, 4 times in all
    await assert.rejects(
      compute("garbage").c.submit(spec),
      /sbatch returned no job id: "@@@ not slurm output @@@" \(gave up after 4 tries\)/,
    );
    await assert.rejects(compute("empty").c.submit(spec), /sbatch returned no job id: "" \(gave up after 4 tries\)/);
  });

  it("turns a failing or hanging sacct/squeue into SlurmQueryError", async () => {
    await assert.rejects(compute("fail").c.status("5"), SlurmQueryError);
    await assert.rejects(compute("hang", "", 300).c.status("5"), SlurmQueryError);
    await assert.rejects(compute("fail").c.activeJobs(), SlurmQueryError);
    await assert.rejects(compute("hang", "", 300).c.jobIdForName("x"), SlurmQueryError);
  });

  it("reads GONE from a silent sacct and the raw line from a garbled one", async () => {
    assert.equal(await compute("empty").c.status("5"), GONE);
    assert.equal(await compute("garbage").c.status("5"), "@@@ not slurm output @@@");
  });

  it("names a scheduler command that is not installed", async () => {
    const c = new SlurmCompute({ runner: makeSubprocessRunner(() => ({ PATH: "/nonexistent" })) });
    await assert.rejects(c.status("5"), /sacct did not run: Command not found: "sacct"/);
    await assert.rejects(c.submit(spec), /sbatch did not run: Command not found: "sbatch"/);
  });
});
