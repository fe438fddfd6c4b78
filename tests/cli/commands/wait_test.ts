import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../../src/dispatch/eval_files.ts";
import { writeCancel } from "../../../src/rundir/cancel_file.ts";
import { failureFrom, writeFailure } from "../../../src/rundir/failure_file.ts";
import { runPhase } from "../../../src/run/phase.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { wakeJobName } from "../../../src/rundir/wake_record.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * `outerloop wait` in-process: a run parked on a fake scheduler, the world
 * changed between polls (`onSleep`), sleeps that take no time.
 */

/** A Slurm run parked by a first pass: evals 1000 (baseline) and 1001 (candidate), wake 1002, all listed. */
async function parkedRun(contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("cli-wait-"), "climb", "run"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({}, contract));
  const compute = new FakeCompute();
  const parked = await cli(["resume", dir.path], { compute });
  assert.equal(parked.code, 75, parked.stderr);
  const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
  const wake = wakeJobName("t1", dir);
  compute.live = new Map([...evals.map((s, i): [string, string[]] => [s.jobName, [String(1000 + i)]]), [wake, [
    "1002",
  ]]]);
  compute.liveStates.set("1000", { state: "PENDING", reason: "Resources" });
  compute.liveStates.set("1001", { state: "RUNNING", reason: "None" });
  compute.calls = [];
  /** The eval jobs write their results and leave the queue (the wake stays, waiting on its dependency). */
  const finish = (scores: (number | null)[] = [10, 12]) => {
    evals.forEach((s, i) =>
      finishEvalJob(s, scores[i] === null ? null : { score: scores[i] }, scores[i] === null ? 1 : 0)
    );
    for (const s of evals) compute.live!.delete(s.jobName);
  };
  /** The wake job runs `resume` inside Slurm (its own process, its own view of the queue). */
  const wakeRuns = async () => {
    compute.live!.delete(wake);
    await runPhase(dir, { compute: new FakeCompute(), self: ["/opt/bin/outerloop"], now: Date.now, env: {} });
  };
  return { dir, compute, evals, finish, wakeRuns };
}

describe("outerloop wait", () => {
  it("polls gently with one listing per poll, looks at the files every second, and sees the wake's decision at once", async () => {
    const run = await parkedRun();
    const start = Date.parse("2026-01-02T03:04:05Z");
    const listedAt: number[] = [];
    let seen = 0;
    const sleeps: number[] = [];
    let decidedAt: number | null = null;
    const r = await cli(["wait", run.dir.path], {
      compute: run.compute,
      sleeps,
      now: start,
      onSleep: async (ms, ctx) => {
        const calls = run.compute.calls.slice(seen);
        seen = run.compute.calls.length;
        if (calls.length > 0) {
          assert.deepEqual(calls, ["squeue"], "one listing per poll, no query per job");
          listedAt.push(ctx.now - ms - start);
        }
        if (decidedAt === null && ctx.now - start >= 40_000) {
          run.finish();
          await run.wakeRuns(); // the wake job decides, in its own process
          decidedAt = ctx.now;
        }
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^verdict: accept$/m);
    assert.deepEqual(listedAt, [0, 10_000, 25_000], "10 s growing by half");
    assert.ok(sleeps.every((ms) => ms <= 1000), "the run dir is looked at every second between polls");
    assert.equal(sleeps.reduce((a, b) => a + b, 0), decidedAt! - start, "the decision was seen at the next look");
    assert.deepEqual(run.compute.calls.slice(seen), [], "the last look reads the decision from the file");
    assert.equal(run.compute.submitted.length, 3, "wait submits nothing while the run has a live wake");
  });

  it("carries the run on itself once every eval of the look is in, instead of waiting for the wake job", async () => {
    const run = await parkedRun();
    const sleeps: number[] = [];
    const r = await cli(["wait", run.dir.path, "--json"], {
      compute: run.compute,
      sleeps,
      onSleep: (_ms, ctx) => {
        if (ctx.count === 4) run.finish(); // the wake, its dependency met now, is about to start
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).verdict, "accept");
    assert.deepEqual(sleeps, [1000, 1000, 1000, 1000, 1000], "within a second of the last exit code");
    // a wake whose jobs have ended is never cancelled: Slurm may be starting it, and it finds the run decided
    assert.match(
      r.stderr,
      /wake job 1002 is about to start \(the jobs it waits on have ended\): left to end by itself/,
    );
    assert.doesNotMatch(r.stderr, /cancelling wake job/);
  });

  it("runs the resume pass itself when nothing is live and no decision came (a lost wake)", async () => {
    const run = await parkedRun();
    const r = await cli(["wait", run.dir.path, "--json"], {
      compute: run.compute,
      onSleep: () => {
        run.finish();
        run.compute.live = new Map(); // the wake is gone too
      },
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, "decided");
    assert.equal(out.verdict, "accept");
    assert.ok(existsSync(run.dir.decision));
    const resumed = await cli(["resume", run.dir.path, "--json"], { compute: new FakeCompute() });
    assert.deepEqual(out, JSON.parse(resumed.stdout), "--json prints the decision as resume --json does");
  });

  it("polls at a fixed --poll interval, and --timeout gives up with 75 changing nothing", async () => {
    const run = await parkedRun();
    const sleeps: number[] = [];
    const r = await cli(["wait", run.dir.path, "--poll", "7", "--timeout", "30", "--json"], {
      compute: run.compute,
      sleeps,
    });
    assert.equal(r.code, 75, r.stderr);
    assert.equal(sleeps.reduce((a, b) => a + b, 0), 30_000);
    assert.ok(sleeps.every((ms) => ms <= 1000));
    assert.equal(run.compute.calls.filter((c) => c === "squeue").length, 6, "a listing at 0, 7, 14, 21, 28 and 30 s");
    assert.match(r.stderr, /not decided after 30s \(--timeout\); nothing was changed/);
    assert.match(r.stderr, new RegExp(`outerloop wait ${run.dir.path}`));
    assert.deepEqual(JSON.parse(r.stdout), { status: "waiting", run_dir: run.dir.path, stopped: "timeout" });
    assert.equal(run.compute.submitted.length, 3);
    assert.deepEqual(run.compute.cancelled, []);
  });

  it("detaches on Ctrl-C with exit 75 and says how to come back", async () => {
    const run = await parkedRun();
    const r = await cli(["wait", run.dir.path], {
      compute: run.compute,
      onSleep: (_ms, ctx) => {
        if (ctx.count === 1) ctx.interrupt();
      },
    });
    assert.equal(r.code, 75);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      new RegExp(
        `detached: the run's jobs keep running and its wake job decides it; come back with "outerloop wait ${run.dir.path}"`,
      ),
    );
    assert.deepEqual(run.compute.cancelled, []);
  });

  it("writes a plain line on each change off a terminal, and one line rewritten in place on one", async () => {
    const run = await parkedRun();
    const plain = await cli(["wait", run.dir.path, "--timeout", "60"], { compute: run.compute });
    const lines = plain.stderr.split("\n").filter((l) => l.includes("measures;"));
    assert.equal(lines.length, 1, plain.stderr);
    assert.match(
      lines[0]!,
      /^outerloop: 0 done, 1 running, 1 pending of 2 measures; waited 0s; longest pending: baseline \(job 1000, Resources\) for 0s$/,
    );
    const tty = await cli(["wait", run.dir.path, "--timeout", "60"], { compute: run.compute, tty: true });
    const frames = tty.stderr.split("\r").slice(1);
    assert.ok(frames.length >= 3, tty.stderr);
    assert.match(frames.at(-1)!, /waited 1m00s; longest pending: baseline \(job 1000, Resources\) for 1m00s\s*\n/);
    // deno-lint-ignore no-control-regex -- colour codes are what must not appear
    assert.doesNotMatch(tty.stderr, /\u001b/);
  });

  it("ends with exit 3 as soon as a measure failed, cancelling the run's other jobs", async () => {
    const run = await parkedRun();
    const r = await cli(["wait", run.dir.path], {
      compute: run.compute,
      onSleep: () => {
        finishEvalJob(run.evals[0]!, null, 1); // the baseline failed (a candidate's crash would be its verdict)
        run.compute.live!.delete(run.evals[0]!.jobName);
      },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /measure baseline \(job 1000\): Eval command exited with code 1/);
    assert.deepEqual(run.compute.cancelled, [["1001", "1002"]]);
    assert.ok(existsSync(run.dir.failure));
    // and later, from the file alone
    const again = await cli(["wait", run.dir.path], { compute: run.compute });
    assert.equal(again.code, 3);
    assert.match(again.stderr, /the run failed on .*"outerloop show/);
  });

  it("prints the tail of a failed eval's output, from failure.json, in wait and in show", async () => {
    const run = await parkedRun();
    // the baseline printed lines, then exited 1; the wake (its own process) met the failure and recorded it
    writeFileSync(join(dirname(run.evals[0]!.script!), EVAL_FILES.output), "loading data\nstep 1\nboom: bad shape\n");
    finishEvalJob(run.evals[0]!, null, 1);
    run.compute.live!.delete(run.evals[0]!.jobName);
    await assert.rejects(run.wakeRuns(), /exited with code 1/);
    const tail = /^--- last 3 line\(s\) of .*output\.log ---\nloading data\nstep 1\nboom: bad shape$/m;
    const f = JSON.parse(readFileSync(run.dir.failure, "utf8"));
    assert.match(f.message, /^measure baseline \(job 1000\): Eval command exited with code 1\n/);
    assert.match(f.message, tail);

    const waited = await cli(["wait", run.dir.path], { compute: run.compute });
    assert.equal(waited.code, 3);
    assert.match(
      waited.stderr,
      /measure baseline \(job 1000\): Eval command exited with code 1 \(the run failed on [^\n]*\)\n/,
    );
    assert.match(waited.stderr, tail);
    const shown = await cli(["show", run.dir.path], { compute: run.compute });
    assert.equal(shown.code, 0);
    assert.match(
      shown.stdout,
      /^failed on [^:]+:\d\d:\d\d\.\d+Z: measure baseline \(job 1000\): Eval command exited with code 1\n/m,
    );
    assert.match(shown.stdout, tail);
    const json = await cli(["show", run.dir.path, "--json"], { compute: run.compute });
    assert.equal(JSON.parse(json.stdout).failure.message, f.message);
  });

  it("ends the live line before the error when the wake records a failure meanwhile", async () => {
    const run = await parkedRun();
    const r = await cli(["wait", run.dir.path], {
      compute: run.compute,
      tty: true,
      onSleep: () => writeFailure(run.dir, failureFrom("measure baseline: boom", ["baseline"], Date.now())),
    });
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      /\r0 done, 1 running, 1 pending of 2 measures; [^\n]*\nouterloop: error: measure baseline: boom/,
    );
  });

  it("puts a log line on a line of its own, not after the live one", async () => {
    const run = await parkedRun();
    const r = await cli(["wait", run.dir.path, "--timeout", "10"], {
      compute: run.compute,
      tty: true,
      onSleep: () => void (run.compute.live = null), // the queue cannot be listed any more
    });
    assert.equal(r.code, 75);
    assert.match(r.stderr, /Resources\) for 0s\nouterloop: warning: cannot list the queue/);
  });

  it("says a cancelled run was cancelled by the user, with exit 3", async () => {
    const run = await parkedRun();
    writeCancel(run.dir, { cancelledAt: "2026-01-02T03:00:00.000Z", jobs: ["1000"] });
    const r = await cli(["wait", run.dir.path], { compute: run.compute });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /cancelled by user on 2026-01-02T03:00:00.000Z/);
    assert.deepEqual(run.compute.calls, []);
  });

  it("returns at once for a decided run, on any backend", async () => {
    const run = await parkedRun();
    run.finish([10, 9]);
    await run.wakeRuns();
    const sleeps: number[] = [];
    const r = await cli(["wait", run.dir.path], { compute: run.compute, sleeps });
    assert.equal(r.code, 10);
    assert.match(r.stdout, /^verdict: reject$/m);
    assert.deepEqual(sleeps, []);
  });

  it("refuses a bad --poll or --timeout, and --poll without --wait on measure", async () => {
    const run = await parkedRun();
    for (
      const [flags, pattern] of [
        [["--poll", "0"], /Invalid --poll "0": expected a whole number from 1/],
        [["--timeout", "-1"], /Invalid --timeout "-1"/],
        [["--poll", "1.5"], /Invalid --poll "1.5"/],
      ] as [string[], RegExp][]
    ) {
      const r = await cli(["wait", run.dir.path, ...flags]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
    }
    const m = await cli([
      "measure",
      "--repo",
      "/nonexistent",
      "--base",
      "a",
      "--candidate",
      "b",
      "--contract",
      "c.json",
      "--run-dir",
      run.dir.path,
      "--timeout",
      "5",
    ]);
    assert.equal(m.code, 2);
    assert.match(m.stderr, /--timeout goes with --wait: add --wait or drop it/);
  });
});
