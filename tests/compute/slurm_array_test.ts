/**
 * SlurmCompute's array verbs against output recorded on Slurm 22.05
 * (tests/fixtures/slurm_arrays/): an array of 6 tasks throttled to 2 (23),
 * task 3 failing, task 5 cancelled while pending.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidJobIdError, type LiveJob } from "../../src/compute/compute.ts";
import { SlurmQueryError } from "../../src/compute/errors.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { parseActiveJobs, parseSubmitted } from "../../src/compute/slurm_parse.ts";
import { GONE, isTerminal } from "../../src/compute/states.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";
import { slurmFixture, squeueFixture } from "./_slurm_fixtures.ts";

const instant = { sleep: async () => {}, random: () => 0.5 };
const spec = { jobName: "eval-x", account: "acct_a", partition: "", timeMinutes: 5, script: "/r/job.sh" };

/** A runner answering by the command's first word(s), recording each argv and the extra environment. */
function scripted(answer: (argv: readonly string[]) => SpawnResult) {
  const calls: { argv: string[]; env: Readonly<Record<string, string>> | undefined }[] = [];
  const runner: Runner = (argv, _timeoutMs, env) => {
    calls.push({ argv: [...argv], env });
    return Promise.resolve(answer(argv));
  };
  return { calls, compute: new SlurmCompute({ runner, ...instant }) };
}

const ids = (jobs: Map<string, LiveJob[]>) => [...jobs.values()].flat().map((j) => j.id);

describe("parseActiveJobs() on recorded squeue output", () => {
  it("reads one row per task with -r: A_T ids, the array and the index", () => {
    const jobs = parseActiveJobs(squeueFixture("squeue-r.txt"));
    assert.deepEqual(ids(jobs), ["23_2", "23_3", "23_4", "23_5", "23_0", "23_1"]);
    assert.deepEqual(jobs.get("fx-array")![0], {
      id: "23_2",
      arrayId: "23",
      taskId: 2,
      name: "fx-array",
      state: "PENDING",
      reason: "JobArrayTaskLimit",
      partition: "cpu",
      script: "/tmp/array-probe/fx-task.sh",
    });
    assert.equal(jobs.get("fx-array")![4]!.state, "RUNNING");
  });

  it("reads a collapsed row of pending tasks (squeue without -r) as one job per task", () => {
    const jobs = parseActiveJobs(squeueFixture("squeue-collapsed.txt"));
    assert.deepEqual(ids(jobs), ["23_2", "23_3", "23_4", "23_5", "23_0", "23_1"]);
    assert.deepEqual(parseActiveJobs(squeueFixture("squeue-r.txt")), jobs);
  });

  it("lists no row for a task cancelled while pending", () => {
    assert.deepEqual(ids(parseActiveJobs(squeueFixture("squeue-r-after-cancel.txt"))), [
      "23_2",
      "23_3",
      "23_4",
      "23_0",
      "23_1",
    ]);
  });

  it("reads a requeued task as pending again (BeginTime)", () => {
    const [t1, t0] = parseActiveJobs(squeueFixture("squeue-r-requeued.txt")).get("fx-requeue")!;
    assert.deepEqual([t1!.id, t1!.state, t1!.reason, t0!.id, t0!.state], [
      "31_1",
      "PENDING",
      "BeginTime",
      "31_0",
      "RUNNING",
    ]);
  });

  it("keeps plain jobs plain beside arrays", () => {
    const jobs = parseActiveJobs(squeueFixture("squeue-r-mixed.txt"));
    assert.deepEqual(jobs.get("fx-plain")!.map((j) => [j.id, j.arrayId, j.taskId]), [["29", null, null]]);
    assert.deepEqual(jobs.get("fx-lim")!.map((j) => j.id), ["28_0", "28_1", "28_2"]);
    assert.equal(jobs.get("fx-plain")![0]!.script, "", "(null) for --wrap");
  });

  it("expands a whole collapsed list (SLURM_BITSTR_LEN=0) and refuses one cut short", () => {
    const whole = parseActiveJobs(squeueFixture("squeue-collapsed-bitstr0.txt")).get("array-probe-bitstr")!;
    assert.equal(whole.length, 30);
    assert.deepEqual(whole.slice(0, 3).map((j) => j.id), ["580_1", "580_4", "580_9"]);
    assert.equal(whole.at(-1)!.id, "580_900");
    assert.throws(
      () => parseActiveJobs(squeueFixture("squeue-collapsed-cut.txt")),
      (e: unknown) =>
        e instanceof SlurmQueryError && /580_\[1,4,9,16,25,36,49,64,81,10".*SLURM_BITSTR_LEN=0/.test(e.message),
    );
  });
});

describe("parseSubmitted() with arrays", () => {
  it("gives an array once, by its array id, from task rows and collapsed rows", () => {
    const text = "23_[2-5%2]|2026-12-01T08:40:00\n23_0|2026-12-01T08:40:00\n23_1|2026-12-01T08:40:00\n" +
      "24|2026-12-01T08:40:01\n25_[1,4,9,16|2026-12-01T08:40:02\n9_1|2020-01-01T00:00:00\n26.batch|2026-12-01T08:40:00\n";
    assert.deepEqual(parseSubmitted(text, new Date("2026-12-01T08:39:59")), ["23", "24", "25"]);
  });
});

describe("SlurmCompute with arrays", () => {
  it("submits one sbatch --array=0-(n-1)%throttle, before the script, and resolves to the array id", async () => {
    const { calls, compute } = scripted(() => exited(0, slurmFixture("sbatch-array.stdout")));
    assert.equal(await compute.submitArray({ ...spec, scriptArgs: ["a"], extra: ["--comment=c"] }, 6, 2), "23");
    const argv = calls[0]!.argv;
    assert.deepEqual(argv.slice(-4), ["--comment=c", "--array=0-5%2", "/r/job.sh", "a"]);
    assert.equal(argv.filter((a) => a.startsWith("--array")).length, 1);
    await compute.submitArray({ jobName: "w", account: "a", partition: "", timeMinutes: 1, command: "true" }, 3);
    assert.deepEqual(calls[1]!.argv.slice(-2), ["--array=0-2", "--wrap=true"]);
    await assert.rejects(compute.submitArray(spec, 0), RangeError);
    assert.equal(calls.length, 2, "nothing is submitted for an empty array");
  });

  it("finds an array that a timed-out sbatch submitted anyway, by name, instead of submitting it again", async () => {
    const now = Date.parse("2026-12-01T08:40:00");
    const sbatches: string[][] = [];
    const runner: Runner = (argv) => {
      if (argv[0] === "sbatch") {
        sbatches.push([...argv]);
        return Promise.resolve(
          exited(1, "", "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation"),
        );
      }
      if (argv[0] === "squeue") {
        return Promise.resolve(exited(0, "23_[2-5%2]|2026-12-01T08:40:00\n23_0|2026-12-01T08:40:00\n"));
      }
      return Promise.resolve(exited(0, ""));
    };
    const compute = new SlurmCompute({ runner, now: () => now, ...instant });
    assert.equal(await compute.submitArray(spec, 6, 2), "23");
    assert.equal(sbatches.length, 1);
  });

  it("gives an array's id for its name", async () => {
    for (const out of ["23_[2-5%2]\n23_0\n", "23_4\n"]) {
      const { compute } = scripted(() => exited(0, out));
      assert.equal(await compute.jobIdForName("fx-array"), "23");
    }
  });

  it("lists with ONE squeue -r and SLURM_BITSTR_LEN=0", async () => {
    const { calls, compute } = scripted(() => exited(0, squeueFixture("squeue-r.txt")));
    assert.equal((await compute.activeJobs()).get("fx-array")!.length, 6);
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0]!.argv.slice(0, 4), ["squeue", "--me", "-r", "--noheader"]);
    assert.deepEqual(calls[0]!.env, { SLURM_BITSTR_LEN: "0" });
  });

  it("answers each task from its own sacct row, asking for the array once; a pending task is absent", async () => {
    const { calls, compute } = scripted(() => exited(0, slurmFixture("sacct-running.txt")));
    const asked = ["23_0", "23_1", "23_2", "23_5"];
    const since = new Date("2026-12-01T08:00:00");
    assert.deepEqual([...await compute.statuses(asked, since)], [["23_0", "RUNNING"], ["23_1", "RUNNING"]]);
    assert.deepEqual(calls[0]!.argv, [
      "sacct",
      "-j",
      "23",
      "--parsable2",
      "--noheader",
      "-X",
      "-o",
      "JobID,State",
      "-S",
      "2026-12-01T08:00:00",
    ]);
  });

  it("never reads a cancelled-while-pending task from the collapsed row that still names it, nor from the raw id", async () => {
    for (const file of ["sacct-stale-collapsed.txt", "sacct-final.txt"]) {
      const { compute } = scripted(() => exited(0, slurmFixture(file)));
      const states = await compute.statuses(["23_3", "23_4", "23_5", "23"]);
      assert.equal(states.has("23_5"), false, file);
      assert.equal(states.has("23"), false, `${file}: an array id is not a job`);
      if (file === "sacct-final.txt") {
        assert.deepEqual([...states], [["23_3", "FAILED"], ["23_4", "COMPLETED"]]);
      }
    }
  });

  it("reads a requeued task as not over", async () => {
    const { compute } = scripted(() => exited(0, slurmFixture("sacct-requeued-raw.txt").replace(/\|[0-9]+\|/g, "|")));
    const states = await compute.statuses(["20_0", "20_1", "20_2"]);
    assert.equal(states.get("20_1"), "REQUEUED");
    assert.equal(isTerminal(states.get("20_1")!), false);
  });

  it("mixes plain jobs and tasks in one sacct", async () => {
    const { calls, compute } = scripted(() => exited(0, "7|COMPLETED\n23_0|COMPLETED\n23_1|FAILED\n"));
    assert.deepEqual([...await compute.statuses(["7", "23_1"])], [["7", "COMPLETED"], ["23_1", "FAILED"]]);
    assert.equal(calls[0]!.argv[2], "7,23");
  });

  it("gives a task's usage from its own row and .batch step", async () => {
    const { calls, compute } = scripted(() => exited(0, slurmFixture("sacct-usage.txt")));
    const u = await compute.usage(["23_3", "23_5"]);
    assert.deepEqual([...u.keys()], ["23_3"]);
    assert.equal(u.get("23_3")!.state, "FAILED");
    assert.equal(u.get("23_3")!.maxRssBytes, 3140 * 1024);
    assert.equal(u.get("23_3")!.timelimitS, 300);
    assert.equal(calls[0]!.argv[2], "23");
  });

  it("cancels tasks by A_T with one scancel, and refuses what is not a job or task id", async () => {
    const { calls, compute } = scripted(() => exited(0));
    await compute.cancelMany(["23_2", "23_3", "7"]);
    assert.deepEqual(calls.map((c) => c.argv), [["scancel", "23_2", "23_3", "7"]]);
    await assert.rejects(compute.cancelMany(["23_[2-5]"]), InvalidJobIdError);
    await assert.rejects(compute.statuses(["23_"]), InvalidJobIdError);
    await assert.rejects(compute.usage(["x"]), InvalidJobIdError);
    assert.equal(calls.length, 1);
  });

  it("gives a pending task's state from the queue, and GONE when neither has it", async () => {
    const queue = new Map([["23_4", "PENDING\n"], ["23_5", ""]]);
    const { calls, compute } = scripted((argv) =>
      argv[0] === "sacct" ? exited(0, argv[2] === "23_0" ? "COMPLETED\n" : "") : exited(0, queue.get(argv[2]!) ?? "")
    );
    assert.equal(await compute.status("23_0"), "COMPLETED");
    assert.equal(await compute.status("23_4"), "PENDING");
    assert.equal(await compute.status("23_5"), GONE);
    assert.deepEqual(calls.map((c) => c.argv.slice(0, 3).join(" ")), [
      "sacct -j 23_0",
      "sacct -j 23_4",
      "squeue -j 23_4",
      "sacct -j 23_5",
      "squeue -j 23_5",
    ]);
  });
});
