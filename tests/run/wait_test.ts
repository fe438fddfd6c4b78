import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type PhaseDeps, runPhase } from "../../src/run/phase.ts";
import { type WaitDeps, waitForRun, type WaitProgress } from "../../src/run/wait.ts";
import { wakeJobName } from "../../src/rundir/wake_record.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { readRunRecord, writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/** A Slurm run parked by a first pass on a fake scheduler that lists its two evals and its wake. */
async function parked() {
  const dir = new RunDir(join(tempDir("run-wait-"), "run"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture());
  const compute = new FakeCompute();
  const phase = (c = compute): PhaseDeps => ({ compute: c, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });
  assert.equal((await runPhase(dir, phase())).kind, "parked");
  const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
  compute.live = new Map([
    ...evals.map((s, i): [string, string[]] => [s.jobName, [String(1000 + i)]]),
    [wakeJobName("t1", dir), ["1002"]],
  ]);
  let clock = Date.parse("2026-01-02T03:04:05Z");
  const sleeps: number[] = [];
  /** Sleeps take no time; `onSleep` changes the world between two polls. */
  const deps = (onSleep: (count: number) => Promise<void> | void = () => {}): WaitDeps => ({
    compute: () => compute,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
      await onSleep(sleeps.length - 1);
    },
    onInterrupt: () => () => {},
  });
  return { dir, compute, evals, phase, deps, sleeps, record: readRunRecord(dir) };
}

describe("waitForRun()", () => {
  it("tells the reporter each poll and, once every eval of the look is in, runs the pass itself within a second", async () => {
    const run = await parked();
    const seen: WaitProgress[] = [];
    const end = await waitForRun(
      run.dir,
      run.record,
      run.deps((count) => {
        if (count !== 0) return;
        run.evals.forEach((s, i) => finishEvalJob(s, { score: [10, 12][i]! }));
        for (const s of run.evals) run.compute.live!.delete(s.jobName);
      }),
      {
        timing: { pollS: null, timeoutS: null },
        pass: () => runPhase(run.dir, run.phase()),
        reporter: { progress: (p) => void seen.push(p) },
      },
    );
    assert.equal(end.kind, "finished");
    assert.equal(end.kind === "finished" && end.outcome.kind === "decided" && end.outcome.fresh, true, "our own pass");
    assert.equal(end.kind === "finished" && end.outcome.kind === "decided" && end.outcome.decision.verdict, "accept");
    assert.deepEqual(run.sleeps, [1000], "the evals' exit codes are seen at the first look at the files");
    assert.deepEqual(seen.map((p) => p.waitedS), [0]);
    assert.deepEqual(seen[0]!.measures.map((m) => m.state), ["pending", "pending"]);
  });

  it("notices a decision another process wrote within a second, without asking the scheduler", async () => {
    const run = await parked();
    const end = await waitForRun(
      run.dir,
      run.record,
      run.deps(async (count) => {
        if (count !== 2) return;
        run.evals.forEach((s, i) => finishEvalJob(s, { score: [10, 12][i]! }));
        run.compute.live = new Map();
        await runPhase(run.dir, run.phase(new FakeCompute())); // the wake decides
        run.compute.calls = [];
      }),
      {
        timing: { pollS: null, timeoutS: null },
        pass: () => Promise.reject(new Error("no pass of our own: the wake decided")),
        reporter: { progress: () => {} },
      },
    );
    assert.equal(end.kind === "finished" && end.outcome.kind === "decided" && end.outcome.fresh, false);
    assert.deepEqual(run.sleeps, [1000, 1000, 1000]);
    assert.deepEqual(run.compute.calls, [], "read from the files");
  });

  it("gives up at the timeout and at an interrupt, changing nothing and printing nothing", async () => {
    const run = await parked();
    const quiet = { progress: () => {} };
    const pass = () => Promise.reject(new Error("no pass while the run's jobs are live"));
    const timing = { pollS: 7, timeoutS: 20 };
    run.compute.calls = [];
    assert.deepEqual(await waitForRun(run.dir, run.record, run.deps(), { timing, pass, reporter: quiet }), {
      kind: "detached",
      why: "timeout",
    });
    assert.equal(run.sleeps.reduce((a, b) => a + b, 0), 20_000);
    assert.ok(run.sleeps.every((ms) => ms <= 1000), "the files are looked at every second");
    assert.equal(run.compute.calls.filter((c) => c === "squeue").length, 4, "one listing at 0, 7, 14 and 20 s");
    let interrupt = () => {};
    const deps: WaitDeps = { ...run.deps(() => interrupt()), onInterrupt: (fn) => ((interrupt = fn), () => {}) };
    assert.deepEqual(await waitForRun(run.dir, run.record, deps, { timing, pass, reporter: quiet }), {
      kind: "detached",
      why: "interrupted",
    });
    assert.equal(run.compute.submitted.length, 3, "nothing submitted beyond the first pass");
    assert.deepEqual(run.compute.cancelled, []);
  });
});
