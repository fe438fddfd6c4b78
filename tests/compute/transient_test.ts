import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SlurmError, SlurmQueryError } from "../../src/compute/errors.ts";
import { makeSubprocessRunner, type Runner } from "../../src/compute/runner.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { parseSubmitted } from "../../src/compute/slurm_parse.ts";
import { backoffMs, DEFAULT_RETRY, OUTAGE_MEMORY_MS, Retries, type RetryPolicy } from "../../src/compute/retry.ts";
import { classifyFailure, FINAL_EXAMPLES } from "../../src/compute/transient.ts";
import { setLogSink } from "../../src/log.ts";
import { exited } from "../helpers/proc.ts";

const spec = { jobName: "eval-x", account: "a", partition: "", timeMinutes: 1, command: "true" };
const failed = (stderr: string) => exited(1, "", stderr);

describe("classifyFailure()", () => {
  it("reads a lost or late answer as maybe-sent: the job may exist", () => {
    for (
      const stderr of [
        "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation",
        "sbatch: error: Batch job submission failed: Zero Bytes were transmitted or received",
        "squeue: error: Unable to contact slurm controller (receive failure)",
        "sbatch: error: Slurm temporarily unable to accept job, sleeping and retrying",
        "sacct: error: Problem talking to the database: Connection refused",
        "sbatch: error: Batch job submission failed: Communication connection failure",
      ]
    ) {
      assert.equal(classifyFailure(failed(stderr)), "maybe-sent", stderr);
    }
    assert.equal(classifyFailure({ ...exited(0), timedOut: true }), "maybe-sent");
    assert.equal(classifyFailure({ ...exited(0), exitCode: null, signal: "SIGKILL" }), "maybe-sent");
  });

  it("reads a request that never reached the controller as not-sent", () => {
    for (
      const stderr of [
        "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)",
        "slurm_load_jobs error: Unable to contact slurm controller (connect failure)",
        "sbatch: error: Batch job submission failed: Slurm backup controller in standby mode",
        "sbatch: error: Batch job submission failed: Unable to create job record, try again",
      ]
    ) {
      assert.equal(classifyFailure(failed(stderr)), "not-sent", stderr);
    }
  });

  it("reads refusals and anything unknown as final", () => {
    for (const text of FINAL_EXAMPLES) {
      assert.equal(classifyFailure(failed(`sbatch: error: Batch job submission failed: ${text}`)), "final", text);
    }
    assert.equal(classifyFailure(failed("slurm_load_jobs error: Invalid job id specified")), "final");
    assert.equal(classifyFailure(failed("")), "final");
  });
});

describe("backoffMs()", () => {
  it("doubles up to the cap, half fixed and half jittered", () => {
    const p: RetryPolicy = { attempts: 9, baseMs: 1000, capMs: 8000, budgetMs: 1e9 };
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => backoffMs(p, a, () => 0)), [500, 1000, 2000, 4000, 4000]);
    assert.deepEqual([1, 2, 3, 4, 5].map((a) => backoffMs(p, a, () => 0.999999)), [1000, 2000, 4000, 8000, 8000]);
    assert.equal(DEFAULT_RETRY.attempts, 4);
  });
});

describe("Retries", () => {
  it("allows the policy's tries within its budget; after a give-up, one try for OUTAGE_MEMORY_MS or until a success", () => {
    let t = 0;
    const r = new Retries({ attempts: 3, baseMs: 1000, capMs: 8000, budgetMs: 10_000 }, {
      now: () => t,
      sleep: async () => {},
      random: () => 0,
    });
    assert.deepEqual([1, 2, 3].map((a) => r.mayRetry(a, 0)), [true, true, false]);
    t = 10_000;
    assert.equal(r.mayRetry(1, 0), false, "no try starts once the budget is spent");
    assert.equal(r.giveUp(3), "(gave up after 3 tries)");
    assert.equal(r.mayRetry(1, t), false, "right after a give-up: one try");
    assert.equal(r.giveUp(1), "(one try: the scheduler failed the same way moments ago)");
    t += OUTAGE_MEMORY_MS;
    assert.equal(r.mayRetry(1, t), true, "the memory fades");
    r.giveUp(1);
    r.succeeded();
    assert.equal(r.mayRetry(1, t), true, "a success clears it");
    assert.equal(r.backoff(2), 1000);
  });
});

describe("parseSubmitted()", () => {
  it("keeps the ids submitted at or after the second of `since`", () => {
    const since = new Date(2026, 0, 2, 3, 4, 5, 600);
    const out = "7|2026-01-02T03:04:04\n8|2026-01-02T03:04:05\n9|2026-01-02T03:10:00\nx|y\n10|Unknown\n";
    assert.deepEqual(parseSubmitted(out, since), ["8", "9", "10"]);
  });
});

/** A scripted runner: per command, a list of answers consumed in order (the last repeats). */
function script(plan: Record<string, (ReturnType<typeof exited> | Error)[]>): { runner: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const seen = new Map<string, number>();
  const runner: Runner = (argv) => {
    calls.push([...argv]);
    const cmd = argv[0]!;
    const n = seen.get(cmd) ?? 0;
    seen.set(cmd, n + 1);
    const answers = plan[cmd] ?? [exited(0)];
    const a = answers[Math.min(n, answers.length - 1)]!;
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  };
  return { runner, calls };
}

function quiet<T>(fn: () => Promise<T>): Promise<{ value: T | undefined; error: unknown; lines: string[] }> {
  const lines: string[] = [];
  const restore = setLogSink((l) => lines.push(l));
  return fn().then(
    (value) => ({ value, error: undefined, lines }),
    (error) => ({ value: undefined, error, lines }),
  ).finally(restore);
}

describe("SlurmCompute retries (scripted runner)", () => {
  it("retries a transient query failure with growing, jittered waits, then answers", async () => {
    const timedOut = failed("slurm_load_jobs error: Socket timed out on send/recv operation");
    const { runner, calls } = script({
      squeue: [timedOut, timedOut, exited(0, ["5", "RUNNING", "None", "cpu", "", "n"].join("\x1f") + "\n")],
    });
    const waits: number[] = [];
    const c = new SlurmCompute({ runner, sleep: async (ms) => void waits.push(ms), random: () => 0 });
    const r = await quiet(() => c.activeJobs());
    assert.deepEqual([...r.value!.keys()], ["n"]);
    assert.equal(calls.length, 3);
    assert.deepEqual(waits, [500, 1000]);
    assert.match(r.lines[0]!, /squeue failed \(1\): slurm_load_jobs error: Socket timed out.*; trying again in 500 ms/);
  });

  it("never retries a final failure, and gives up after the attempts allowed", async () => {
    const once = script({ sacct: [failed("sacct: error: Invalid user id")] });
    await assert.rejects(new SlurmCompute({ runner: once.runner, sleep: async () => {} }).status("5"), SlurmQueryError);
    assert.equal(once.calls.length, 1);
    const down = script({ squeue: [failed("Unable to contact slurm controller (connect failure)")] });
    const r = await quiet(() => new SlurmCompute({ runner: down.runner, sleep: async () => {} }).activeJobNames());
    assert.ok(r.error instanceof SlurmQueryError);
    assert.match(r.error.message, /\(gave up after 4 tries\)$/);
    assert.equal(down.calls.length, 4);
  });

  it("gives later commands one try while the scheduler was just unreachable, and all tries again once it answers", async () => {
    let t = 0;
    let down = true;
    const calls: string[] = [];
    const runner: Runner = (argv) => {
      calls.push(argv[0]!);
      return Promise.resolve(
        down
          ? failed("Unable to contact slurm controller (connect failure)")
          : exited(0, ["1", "RUNNING", "None", "cpu", "", "n"].join("\x1f") + "\n"),
      );
    };
    const c = new SlurmCompute({ runner, now: () => t, sleep: async (ms) => void (t += ms) });
    await quiet(() => c.activeJobs());
    assert.equal(calls.length, 4);
    const second = await quiet(() => c.statuses(["1"]));
    assert.equal(calls.length, 5, "one try: an outage costs one round of retries");
    assert.match((second.error as Error).message, /\(one try: the scheduler failed the same way moments ago\)$/);
    down = false;
    await c.activeJobs();
    down = true;
    await quiet(() => c.activeJobs());
    assert.equal(calls.length, 10, "it answered in between: four tries again");
  });

  it("starts no new try once the budget is spent", async () => {
    let t = 0;
    const down = script({ squeue: [failed("Unable to contact slurm controller (connect failure)")] });
    const c = new SlurmCompute({
      runner: down.runner,
      now: () => t,
      sleep: async (ms) => void (t += ms),
      retry: { attempts: 100, budgetMs: 10_000 },
    });
    await quiet(() => c.activeJobNames());
    assert.ok(down.calls.length >= 4 && down.calls.length <= 6, String(down.calls.length));
  });

  it("submits once more after a connect failure without looking anything up (nothing was sent)", async () => {
    const { runner, calls } = script({
      sbatch: [
        failed("sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)"),
        exited(0, "42\n"),
      ],
    });
    const r = await quiet(() => new SlurmCompute({ runner, sleep: async () => {} }).submit(spec));
    assert.equal(r.value, "42");
    assert.deepEqual(calls.map((c) => c[0]), ["sbatch", "sbatch"]);
  });

  it("never runs sbatch again after a refusal", async () => {
    const { runner, calls } = script({
      sbatch: [failed("sbatch: error: Batch job submission failed: Invalid qos specification")],
    });
    await assert.rejects(
      new SlurmCompute({ runner, sleep: async () => {} }).submit(spec),
      (e: unknown) => e instanceof SlurmError && /Invalid qos specification$/.test(e.message),
    );
    assert.equal(calls.length, 1);
  });

  it("finds a job that a timed-out sbatch submitted anyway, by name, and returns its id", async () => {
    const now = new Date();
    const stamp = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}T${
        String(d.getHours()).padStart(2, "0")
      }:${String(d.getMinutes()).padStart(2, "0")}:${String(d.getSeconds()).padStart(2, "0")}`;
    const { runner, calls } = script({
      sbatch: [failed("sbatch: error: Batch job submission failed: Socket timed out on send/recv operation")],
      squeue: [exited(0, `77|${stamp(now)}\n`)],
    });
    const r = await quiet(() => new SlurmCompute({ runner, sleep: async () => {} }).submit(spec));
    assert.equal(r.value, "77");
    assert.deepEqual(calls.map((c) => c[0]), ["sbatch", "squeue"]);
    assert.deepEqual(calls[1], ["squeue", "--me", "--name", "eval-x", "--states=all", "--noheader", "-o", "%i|%V"]);
    assert.match(r.lines.at(-1)!, /but job 77 named eval-x was submitted: using it/);
  });

  it("does not submit again when the lookup cannot be done, and says why", async () => {
    const { runner, calls } = script({
      sbatch: [failed("sbatch: error: Batch job submission failed: Socket timed out on send/recv operation")],
      squeue: [failed("squeue: error: Unable to contact slurm controller (connect failure)")],
    });
    const r = await quiet(() => new SlurmCompute({ runner, sleep: async () => {} }).submit(spec));
    assert.ok(r.error instanceof SlurmError);
    assert.match(
      r.error.message,
      /Socket timed out.*; whether job eval-x was submitted cannot be told \(squeue failed/,
    );
    assert.match(r.error.message, /it is not submitted again: a later pass finds it by name if it exists$/);
    assert.equal(calls.filter((c) => c[0] === "sbatch").length, 1);
  });

  it("submits again only after two clean lookups found nothing in the queue or in accounting", async () => {
    const { runner, calls } = script({
      sbatch: [failed("Socket timed out on send/recv operation"), exited(0, "43\n")],
      squeue: [exited(0, "")],
      sacct: [exited(0, "")],
    });
    const r = await quiet(() => new SlurmCompute({ runner, sleep: async () => {} }).submit(spec));
    assert.equal(r.value, "43");
    assert.deepEqual(calls.map((c) => c[0]), ["sbatch", "squeue", "sacct", "squeue", "sacct", "sbatch"]);
    assert.equal(calls[2]![1], "--name");
  });
});

describe("SlurmCompute against a stateful fake scheduler on PATH", () => {
  const fakebin = join(import.meta.dirname!, "..", "fixtures", "fakebin");
  function fake(plans: Record<string, string>) {
    const state = tempDir("fakeslurm-state-");
    const log = join(state, "argv.log");
    const env: Record<string, string> = {
      PATH: `${fakebin}:/usr/bin:/bin`,
      OUTERLOOP_FAKE_SLURM_STATE: state,
      OUTERLOOP_FAKE_SLURM_LOG: log,
      GITHUB_TOKEN: "s3cret",
      OUTERLOOP_API_TOKEN: "s3cret",
    };
    for (const [cmd, plan] of Object.entries(plans)) env[`OUTERLOOP_FAKE_SLURM_PLAN_${cmd.toUpperCase()}`] = plan;
    const c = new SlurmCompute({
      runner: makeSubprocessRunner(() => env),
      sleep: async () => {},
      commandTimeoutMs: 5000,
    });
    const jobs = () =>
      existsSync(join(state, "jobs")) ? readFileSync(join(state, "jobs"), "utf8").trim().split("\n") : [];
    const calls = (cmd: string) => readFileSync(log, "utf8").split("\n").filter((l) => l.startsWith(`${cmd} `)).length;
    return { c, jobs, calls, state, log: () => readFileSync(log, "utf8") };
  }

  for (
    const [fault, sbatchCalls] of [
      ["timeout-after", 1], // submitted, then "Socket timed out": found by name
      ["empty-after", 1], // submitted, exit 0, no id printed: found by name
      ["timeout", 2], // "Socket timed out" before anything was done: looked up, absent twice, submitted again
      ["fail", 2], // connect failure: nothing sent, submitted again at once
    ] as const
  ) {
    it(`makes exactly one job of one submit when sbatch answers "${fault}" first`, async () => {
      const f = fake({ sbatch: `${fault} ok` });
      const r = await quiet(() => f.c.submit({ ...spec, jobName: `eval-${fault}` }));
      assert.equal(r.error, undefined);
      assert.equal(f.jobs().length, 1, f.jobs().join("\n"));
      assert.equal(f.jobs()[0]!.split("|")[0], r.value);
      assert.equal(f.calls("sbatch"), sbatchCalls);
      assert.doesNotMatch(f.log(), /^leaked/m);
    });
  }

  it("finds an already-ended job in accounting when the queue has forgotten it", async () => {
    const f = fake({ sbatch: "timeout-after", squeue: "empty" });
    const r = await quiet(() => f.c.submit(spec));
    assert.equal(r.value, "100");
    assert.equal(f.calls("sbatch"), 1);
    assert.equal(f.calls("sacct"), 1);
  });

  it("does not take an older job of the same name for this submission's", async () => {
    const f = fake({ sbatch: "timeout ok" });
    writeFileSync(join(f.state, "jobs"), "5|eval-x|2020-01-01T00:00:00\n");
    writeFileSync(join(f.state, "next"), "100\n");
    const r = await quiet(() => f.c.submit(spec));
    assert.equal(r.value, "100");
    assert.equal(f.jobs().length, 2);
  });
});
