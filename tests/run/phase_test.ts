import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { describe, it } from "node:test";
import { setLogSink } from "../../src/log.ts";
import { SlurmError } from "../../src/compute/errors.ts";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { quoteCommand } from "../../src/compute/quote.ts";
import { runPhase } from "../../src/run/phase.ts";
import { type RunRecord, writeRunRecord } from "../../src/rundir/run_record.ts";
import { BLIND_WAKE_SECONDS } from "../../src/run/wake.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const SELF = ["/opt/bin/outerloop"];
const deps = (compute: FakeCompute) => ({ compute, self: SELF, now: Date.now, env: {} });

function record(runDir: string): RunRecord {
  const r = runRecordFixture({ createdAt: new Date().toISOString() });
  writeRunRecord(new RunDir(runDir), r);
  return r;
}

const newRun = () => {
  // a run dir beside its climb's shared baseline cache, both inside the test's own temp dir
  const runDir = join(tempDir("phase-"), "run");
  return { runDir, rec: record(runDir) };
};

describe("runPhase()", () => {
  it("parks behind one afterany wake that resumes this run dir", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    const outcome = await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(outcome.kind, "parked");
    const wake = withDefaults(compute.submitted.at(-1)!);
    assert.equal(wake.dependency, "afterany:1000:1001?afternotok:1001", "the look, or a candidate crash first");
    assert.equal(wake.command, quoteCommand([...SELF, "resume", "--wake", runDir]));
    assert.equal(wake.output, join(runDir, "wake.out"));
    // what a pass needs, on the evals' lane unless the run names the wake's
    assert.deepEqual([wake.mem, wake.cpus, wake.timeMinutes, wake.partition, wake.qos], ["512M", 1, 10, "cpu", ""]);
    const recorded = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
    assert.equal(recorded.job_id, "1002");
    assert.deepEqual(recorded.pending, ["1000", "1001"]);
  });

  it("puts the wake on the run's wake partition and QOS when it has them", async () => {
    const runDir = join(tempDir("phase-wake-"), "run");
    const rec = runRecordFixture({ createdAt: new Date().toISOString(), wakePartition: "fast", wakeQos: "wakeq" });
    writeRunRecord(new RunDir(runDir), rec);
    const compute = new FakeCompute();
    await runPhase(new RunDir(runDir), deps(compute));
    const wake = withDefaults(compute.submitted.at(-1)!);
    assert.deepEqual([wake.partition, wake.qos, wake.account], ["fast", "wakeq", "acct"]);
    assert.equal(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).wake_partition, "fast");
  });

  it("asks for the contract's eval_mem and eval_cpus for every eval job, the reference's 2G and 1 by default", async () => {
    const asked = async (contract: Record<string, unknown>) => {
      const runDir = join(tempDir("phase-mem-"), "run");
      writeRunRecord(new RunDir(runDir), runRecordFixture({ createdAt: new Date().toISOString() }, contract));
      const compute = new FakeCompute();
      await runPhase(new RunDir(runDir), deps(compute));
      const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-")).map(withDefaults);
      assert.equal(evals.length, 2);
      return evals.map((s) => [s.mem, s.cpus]);
    };
    assert.deepEqual(await asked({}), [["2G", 1], ["2G", 1]]);
    assert.deepEqual(await asked({ eval_mem: "24G", eval_cpus: 6 }), [["24G", 6], ["24G", 6]]);
  });

  it("submits a deadline wake when the queue cannot be read", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    compute.live = null;
    const outcome = await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(outcome.kind, "parked");
    assert.equal(compute.submitted.length, 1, "only the wake: nothing may be dispatched blind");
    assert.equal(withDefaults(compute.submitted[0]!).begin, `now+${BLIND_WAKE_SECONDS}`);
    assert.equal(withDefaults(compute.submitted[0]!).dependency, "");
  });

  it("falls back to a deadline wake when sbatch refuses the dependency", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    const submit = compute.submit.bind(compute);
    compute.submit = async (spec) => {
      if (spec.dependency) throw new SlurmError("sbatch failed (1): Job dependency problem");
      return await submit(spec);
    };
    await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).begin, `now+${BLIND_WAKE_SECONDS}`);
  });

  it("never dispatches a measure twice when two resumes run at once", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    const both = await Promise.allSettled([
      runPhase(new RunDir(runDir), deps(compute)),
      runPhase(new RunDir(runDir), deps(compute)),
    ]);
    const evalSubmits = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
    assert.equal(evalSubmits.length, 2);
    assert.equal(new Set(evalSubmits.map((s) => s.jobName)).size, 2);
    const rejected = both.filter((b) => b.status === "rejected");
    assert.equal(rejected.length, 1, "the second pass must find the run locked");
    assert.equal((rejected[0] as PromiseRejectedResult).reason.name, "RunLockedError");
    // a later pass finds the jobs live and submits nothing but a new wake
    compute.live = new Map(evalSubmits.map((s, i) => [s.jobName, [String(1000 + i)]]));
    await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(compute.submitted.filter((s) => s.jobName.startsWith("eval-")).length, 2);
  });

  it("cancels the previous queued wake when it parks again on other jobs, while one it waits on is still queued", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    const cancelled: string[] = [];
    compute.cancel = async (id: string) => {
      cancelled.push(id);
    };
    await runPhase(new RunDir(runDir), deps(compute));
    const firstWake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).job_id;
    const wakeName = compute.submitted.at(-1)!.jobName;
    // one eval job is live under another id (a lagging record), the other under its own, so the first wake
    // still waits on it and cannot start: it is replaced and cancelled
    const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
    compute.live = new Map([
      [evals[0]!.jobName, [compute.submittedIds[compute.submitted.indexOf(evals[0]!)]!]],
      [evals[1]!.jobName, ["2001"]],
      [wakeName, [firstWake]],
    ] as [string, string[]][]);
    await runPhase(new RunDir(runDir), deps(compute));
    assert.deepEqual(cancelled, [firstWake]);
    // once none of the jobs the recorded wake waits on is queued, its dependency is met and Slurm starts it at
    // any moment: a cancel now could kill it as it runs, so it is left to find the run as the pass leaves it
    const second = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
    compute.live = new Map([
      ...evals.map((s, i) => [s.jobName, [String(3000 + i)]]),
      [wakeName, [second.job_id]],
    ] as [string, string[]][]);
    await runPhase(new RunDir(runDir), deps(compute));
    assert.deepEqual(cancelled, [firstWake], "a wake about to start is never cancelled");
  });

  it("decides once every job has finished, and a decided run answers unchanged", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    const first = await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(first.kind, "decided");
    assert.equal(first.kind === "decided" && first.decision.verdict, "accept");
    const bytes = readFileSync(join(runDir, "decision.json"), "utf8");
    const calls = compute.calls.length;
    const again = await runPhase(new RunDir(runDir), deps(compute));
    assert.equal(again.kind === "decided" && again.fresh, false);
    assert.equal(compute.calls.length, calls);
    assert.equal(readFileSync(join(runDir, "decision.json"), "utf8"), bytes);
  });

  it("fails a run whose baseline's result lacks the contract's metric saying the key meant and the way on", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { scroe: 10, wall: 1 });
    await assert.rejects(runPhase(new RunDir(runDir), deps(compute)), (e: Error) => {
      assert.match(
        e.message.split("\n")[0]!,
        /keys present are "scroe", "wall"; did you mean "scroe"\?.* new --run-dir$/,
      );
      return true;
    });
  });

  it("explains a failed wake submission and keeps every record", async () => {
    const { runDir } = newRun();
    const compute = new FakeCompute();
    const submit = compute.submit.bind(compute);
    compute.submit = async (spec) => {
      if (spec.jobName.startsWith("wake-")) {
        throw new SlurmError("sbatch failed (1): Unable to contact slurm controller");
      }
      return await submit(spec);
    };
    const runJson = readFileSync(join(runDir, "run.json"), "utf8");
    await assert.rejects(
      runPhase(new RunDir(runDir), deps(compute)),
      (e: unknown) =>
        e instanceof SlurmError && /Cannot submit the wake job.*Nothing is lost.*outerloop resume/.test(e.message),
    );
    assert.equal(readFileSync(join(runDir, "run.json"), "utf8"), runJson);
  });
});

describe("runPhase() and the baseline cache", () => {
  it("decides, with a warning, when the cache entry cannot be written (a directory stands in its place)", async () => {
    const climb = tempDir("phase-cache-");
    const r = runRecordFixture({ createdAt: new Date().toISOString() }, { baseline: "cached" });
    const dir = new RunDir(join(climb, "run"));
    writeRunRecord(dir, r);
    mkdirSync(join(climb, "baselines", `toy@${r.baseSha}.json`), { recursive: true });
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    const warnings: string[] = [];
    const restore = setLogSink((line) => warnings.push(line));
    try {
      const outcome = await runPhase(dir, deps(compute));
      assert.equal(outcome.kind, "decided");
    } finally {
      restore();
    }
    assert.ok(existsSync(dir.decision));
    assert.ok(warnings.some((w) => /warning: cannot write the baseline cache in /.test(w)), warnings.join("\n"));
  });
});
