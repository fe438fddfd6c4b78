import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { withOneListing } from "../../src/compute/one_listing.ts";
import { elapsedOnly, type JobUsage } from "../../src/compute/usage.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { readCancel, RunCancelledError, writeCancel } from "../../src/rundir/cancel_file.ts";
import { cancelRun } from "../../src/run/cancel_run.ts";
import { readDecision } from "../../src/rundir/decision_file.ts";
import { failureFrom, readFailure, writeFailure } from "../../src/rundir/failure_file.ts";
import { setLogSink } from "../../src/log.ts";
import { runPhase } from "../../src/run/phase.ts";
import { countStates, PendingTracker, progressLine } from "../../src/views/progress.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { liveJobsOf, runJobNames } from "../../src/plan/run_jobs.ts";
import { type RunRecord, RunRecordError, writeRunRecord } from "../../src/rundir/run_record.ts";
import { climbRunDirs, summarizeRun } from "../../src/views/run_summary.ts";
import { runStatus } from "../../src/views/run_status.ts";
import { observedRows } from "../../src/views/observed_rows.ts";
import { evaluateRun } from "../../src/evaluation/evaluate.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { formatBytes, formatUsageTable, usageWarnings } from "../../src/report/usage_table.ts";
import { wakeJobName } from "../../src/rundir/wake_record.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const SELF = ["/opt/bin/outerloop"];
const NOW = Date.parse("2026-01-02T03:04:05Z");
const deps = (compute: FakeCompute, env: Record<string, string> = {}) => ({ compute, self: SELF, now: () => NOW, env });

function newRun(over: Partial<RunRecord> = {}, contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("watch-run-"), "climb", "r1"));
  const r = runRecordFixture({ createdAt: "2026-01-02T03:00:00.000Z", ...over }, contract);
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, r);
  return { dir, r };
}

const evalSpecs = (c: FakeCompute) => c.submitted.filter((s) => s.jobName.startsWith("eval-"));
const usage = (jobId: string, over: Partial<JobUsage> = {}): JobUsage => ({
  ...elapsedOnly(jobId, "COMPLETED", 50),
  timelimitS: 60,
  maxRssBytes: 100 * 1024 ** 2,
  reqMemBytes: 2 * 1024 ** 3,
  allocCpus: 1,
  totalCpuS: 40,
  cpuEfficiency: 0.8,
  ...over,
});

describe("a pass that meets an eval failure", () => {
  it("records failure.json and cancels the run's other live jobs with one scancel, sparing its own", async () => {
    const { dir } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute)); // parks: 1000 baseline, 1001 candidate, 1002 the wake
    const [base, cand] = evalSpecs(compute);
    finishEvalJob(base!, null, 1); // the baseline failed: the run's failure
    // its own job still listed COMPLETING (Slurm 24.11 lists it a moment longer): over, not cancelled
    compute.live = new Map([[base!.jobName, ["1000"]], [cand!.jobName, ["1001"]], [wakeJobName("t1", dir), ["1002"]]]);
    compute.liveStates.set("1000", { state: "COMPLETING", reason: "" });
    await assert.rejects(runPhase(dir, deps(compute, { SLURM_JOB_ID: "1002" })), EvalError);
    assert.deepEqual(compute.cancelled, [["1001"]], "the candidate, not the wake this pass runs in");
    const f = readFailure(dir)!;
    assert.equal(f.measure, "baseline");
    assert.deepEqual([f.jobId, f.kind, f.cause], ["1000", "exit", "eval command exited with code 1"]);
    assert.match(f.message, /^measure baseline \(job 1000\): Eval command exited with code 1$/);
    assert.equal(f.failedAt, new Date(NOW).toISOString());
    // a resume by hand meets the same failure: the record stays the first; the wake is cancelled now
    await assert.rejects(runPhase(dir, { ...deps(compute), now: () => NOW + 1000 }), EvalError);
    assert.deepEqual(compute.cancelled, [["1001"], ["1002"]]);
    assert.equal(readFailure(dir)!.failedAt, new Date(NOW).toISOString());
  });

  it("still fails with the eval's error when the queue cannot be listed for the cancel", async () => {
    const { dir } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute));
    for (const s of evalSpecs(compute)) finishEvalJob(s, null, 2);
    compute.live = null;
    await assert.rejects(runPhase(dir, deps(compute)), /exited with code 2/);
    assert.deepEqual(compute.cancelled, []);
    assert.notEqual(readFailure(dir), null);
  });

  it("keeps the whole message, the output's tail too, and names the longest measure its first line starts with", () => {
    const f = failureFrom("measure sib-a b-cand was cancelled (exit 143); …\ntail\n", ["sib-a", "sib-a b-cand"], NOW);
    assert.deepEqual(f, {
      measure: "sib-a b-cand",
      jobId: null,
      kind: null,
      cause: null,
      message: "measure sib-a b-cand was cancelled (exit 143); …\ntail",
      failedAt: "2026-01-02T03:04:05.000Z",
    });
    assert.equal(failureFrom("Eval job has not finished", ["baseline"], NOW).measure, null);
  });

  it("refuses a damaged failure.json naming the file", () => {
    const { dir } = newRun();
    writeFileSync(dir.failure, "{");
    assert.throws(() => readFailure(dir), (e: unknown) => e instanceof RunRecordError && e.path === dir.failure);
    assert.throws(() => writeFailure(dir, failureFrom("x", [], NOW)), RunRecordError);
  });
});

describe("a cancelled run", () => {
  it("is refused by a pass, which dispatches nothing", async () => {
    const { dir } = newRun();
    writeCancel(dir, { cancelledAt: "2026-01-02T03:04:00.000Z", jobs: [] });
    const compute = new FakeCompute();
    await assert.rejects(
      runPhase(dir, deps(compute)),
      (e: unknown) =>
        e instanceof RunCancelledError && /was cancelled by user on 2026-01-02T03:04:00.000Z/.test(e.message),
    );
    assert.deepEqual(compute.calls, []);
  });

  it("cancelRun() marks it first, then cancels its evals and its wake with ONE scancel", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute));
    compute.live = new Map([
      ...evalSpecs(compute).map((s, i): [string, string[]] => [s.jobName, [String(1000 + i)]]),
      [wakeJobName("t1", dir), ["1002"]],
      ["someone-elses-job", ["77"]],
    ]);
    let markedFirst = false;
    compute.onCancel = () => (markedFirst = existsSync(dir.cancelled));
    const calls = compute.calls.length;
    const out = await cancelRun(dir, r, compute, () => NOW);
    assert.deepEqual(out, {
      kind: "cancelled",
      at: "2026-01-02T03:04:05.000Z",
      jobs: ["1000", "1001", "1002"],
      already: false,
      local: null,
    });
    assert.ok(markedFirst, "cancelled.json is written before any job is cancelled");
    assert.deepEqual(compute.calls.slice(calls), ["squeue", "scancel"]);
    assert.deepEqual(readCancel(dir), { cancelledAt: "2026-01-02T03:04:05.000Z", jobs: ["1000", "1001", "1002"] });
    // again: the first record stays, the queue is swept once more and holds nothing of the run
    const again = await cancelRun(dir, r, compute, () => NOW + 60_000);
    assert.deepEqual(again, {
      kind: "cancelled",
      at: "2026-01-02T03:04:05.000Z",
      jobs: [],
      already: true,
      local: null,
    });
    assert.deepEqual(compute.cancelled, [["1000", "1001", "1002"]]);
  });

  it("cancelRun() never stops another run's job that shares an eval job name (one run tag in two climbs)", async () => {
    const a = newRun();
    const b = newRun();
    const compute = new FakeCompute();
    const live = () => [...compute.live!.values()].flat().sort();
    compute.onSubmit = (spec, id) => compute.live!.set(spec.jobName, [...(compute.live!.get(spec.jobName) ?? []), id]);
    compute.onCancel = () => {};
    assert.equal((await runPhase(a.dir, deps(compute))).kind, "parked");
    // b's evals have a's names: its measurer takes a's live jobs as its own (the reference's liveness
    // hint) and parks on them, submitting only its wake
    const waits: string[] = [];
    const restoreLog = setLogSink((l) => waits.push(l));
    assert.equal((await runPhase(b.dir, deps(compute)).finally(restoreLog)).kind, "parked");
    assert.equal(evalSpecs(compute).length, 2);
    assert.deepEqual(
      waits.filter((l) => l.includes(" waits on job ")).map((l) => l.split(",")[0]),
      [
        "outerloop: warning: measure baseline waits on job 1000",
        "outerloop: warning: measure candidate waits on job 1001",
      ],
      "b says whose jobs it waits on",
    );
    assert.deepEqual(live(), ["1000", "1001", "1002", "1003"]);
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    const out = await cancelRun(b.dir, b.r, compute, () => NOW).finally(restore);
    assert.deepEqual(out.kind === "cancelled" && out.jobs, ["1003"], "b's wake only: a's evals run in a's run dir");
    const left = lines.filter((l) => l.includes("left job"));
    assert.equal(left.length, 2, lines.join("\n"));
    assert.match(left[0]!, /^outerloop: warning: left job 1000 alone: it has a job name of this run \(eval-/);
    assert.ok(left[0]!.includes(`"${a.dir.path}/eval-`), "it names where the job runs");
    const other = await cancelRun(a.dir, a.r, compute, () => NOW);
    assert.deepEqual(other.kind === "cancelled" && other.jobs, ["1000", "1001", "1002"]);
  });

  it("cancelRun() leaves a decided run as it is", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    await runPhase(dir, deps(compute));
    const out = await cancelRun(dir, r, compute, () => NOW);
    assert.equal(out.kind, "decided");
    assert.equal(existsSync(dir.cancelled), false);
  });
});

describe("resource use in decision.json", () => {
  it("keeps what one sacct says of each measured job, under usage", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    compute.usages = new Map([["1000", usage("1000")], ["1001", usage("1001", { state: "RUNNING" })]]);
    await runPhase(dir, deps(compute));
    assert.equal(compute.calls.filter((c) => c === "sacct").length, 1);
    const json = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.deepEqual(Object.keys(json.usage), ["baseline"], "a job sacct still shows running has no figures yet");
    assert.deepEqual(json.usage.baseline, {
      job_id: "1000",
      state: "COMPLETED",
      elapsed_s: 50,
      timelimit_s: 60,
      max_rss_bytes: 100 * 1024 ** 2,
      req_mem_bytes: 2 * 1024 ** 3,
      alloc_cpus: 1,
      total_cpu_s: 40,
      cpu_efficiency: 0.8,
    });
    assert.deepEqual(readDecision(dir, r)!.usage?.["baseline"], usage("1000"));
  });

  it("warns in the verdict's reasons of a job that delivered its result but that Slurm marked TIMEOUT", async () => {
    const { dir, r } = newRun({}, { eval_minutes: 1 });
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    // 71 s of a 60 s limit: Slurm checks limits every 30 s, so the command finished before the kill
    compute.usages = new Map([["1000", usage("1000")], ["1001", usage("1001", { state: "TIMEOUT", elapsedS: 71 })]]);
    const out = await runPhase(dir, deps(compute));
    assert.equal(out.kind, "decided");
    const reasons = readDecision(dir, r)!.reasons;
    assert.equal(reasons.length, 2, "the benchmark's sentence, then the warning");
    assert.equal(
      reasons[1],
      'Warning: measure "candidate" (job 1001) ran 1m11s of its 1m00s walltime and Slurm marked it TIMEOUT; ' +
        "its command finished before the kill, so the result counts, but a slower run will be killed: " +
        "raise eval_minutes in the contract (now 1 minute).",
    );
    assert.deepEqual(JSON.parse(readFileSync(dir.decision, "utf8")).reasons, reasons);
  });

  it("show names eval_minutes for a measure whose job hit its walltime without a result", async () => {
    const { dir, r } = newRun({}, { eval_minutes: 3 });
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute)); // parks: 1000 baseline, 1001 candidate
    compute.states = new Map([["1000", "RUNNING"], ["1001", "TIMEOUT"]]);
    const status = await runStatus(evaluateRun(readRunSnapshot(dir, r)), compute, () => NOW);
    assert.deepEqual(status.measures.find((m) => m.name === "candidate"), {
      name: "candidate",
      state: "failed",
      jobId: "1001",
      why: "job 1001 hit its walltime (TIMEOUT) before producing a result; a slower run needs more minutes than " +
        "were declared for its eval: raise eval_minutes in the contract (now 3 minutes)",
    });
  });

  it("show says of an eval a signal stopped what the pass would make of it: waiting for the scheduler, then sent again", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute)); // parks: 1000 baseline, 1001 candidate
    const evalOf = (prefix: string) => join(dir.path, readdirSync(dir.path).find((f) => f.startsWith(prefix))!);
    writeFileSync(join(evalOf("eval-baseline-"), "exit-code"), "143");
    compute.states = new Map([["1001", "RUNNING"]]);
    compute.live = new Map();
    const show = async () => {
      const status = await runStatus(evaluateRun(readRunSnapshot(dir, r)), compute, () => NOW);
      return status.measures.find((m) => m.name === "baseline");
    };
    assert.deepEqual(await show(), {
      name: "baseline",
      state: "running",
      reason: "stopped by a signal (exit 143); the scheduler has not said how its job ended yet",
    });
    compute.states = new Map([["1000", "CANCELLED by 0"], ["1001", "RUNNING"]]);
    assert.deepEqual(await show(), {
      name: "baseline",
      state: "not dispatched",
      jobId: "1000",
      reason: "job 1000 ended CANCELLED by 0 (exit 143), which is no fault of its code: the next pass sends it again " +
        "(retry 1 of 2)",
    });
    compute.states = new Map([["1000", "OUT_OF_MEMORY"], ["1001", "RUNNING"]]);
    assert.deepEqual((await show())?.state, "failed");
  });

  it("show says of a job queued again after its eval began that the scheduler requeued it, naming the host", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute)); // parks: 1000 baseline, 1001 candidate
    const evalOf = (prefix: string) => join(dir.path, readdirSync(dir.path).find((f) => f.startsWith(prefix))!);
    writeFileSync(join(evalOf("eval-candidate-"), "started"), "2026-12-03T10:00:00Z tbnode2\n");
    compute.live = new Map(
      compute.submitted.filter((s) => s.jobName.startsWith("eval-")).map((s, i) => [s.jobName, [String(1000 + i)]]),
    );
    compute.liveStates.set("1001", { state: "PENDING", reason: "BeginTime" });
    const status = await runStatus(evaluateRun(readRunSnapshot(dir, r)), compute, () => NOW);
    assert.deepEqual(status.measures.find((m) => m.name === "candidate"), {
      name: "candidate",
      state: "pending",
      jobId: "1001",
      reason: "requeued by the scheduler: its run on tbnode2 ended without a result (its node lost, or preempted); " +
        "it runs again under the same job; BeginTime",
    });
    assert.equal(status.measures.find((m) => m.name === "baseline")?.reason, undefined, "never started: no note");
  });

  it("tells a look whose every measure finished from the snapshot: no scheduler call, each job from its marker", async () => {
    const { dir, r } = newRun({}, { repeats: 2 });
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    assert.equal((await runPhase(dir, deps(compute))).kind, "decided");
    // a finished eval whose result cannot be read is a failed row, worded as the observed path words it
    const candidate2 = readdirSync(dir.path).find((f) => f.startsWith("eval-candidate#2-"))!;
    writeFileSync(join(dir.path, candidate2, "exit-code"), "1\n");
    const markers = Object.fromEntries(
      readdirSync(dir.path).filter((f) => f.startsWith("eval-")).map((f) => [
        f.slice("eval-".length, f.indexOf("-", "eval-".length + 1)),
        readFileSync(join(dir.path, f, "submitted"), "utf8").trim(),
      ]),
    );
    compute.calls = [];
    const e = evaluateRun(readRunSnapshot(dir, r));
    const status = await runStatus(e, compute, () => NOW);
    assert.deepEqual(compute.calls, []);
    assert.deepEqual(status.measures.map((m) => [m.name, m.state, m.jobId]), [
      ["baseline", "done", markers["baseline"]],
      ["candidate", "done", markers["candidate"]],
      ["baseline#2", "done", markers["baseline#2"]],
      ["candidate#2", "failed", markers["candidate#2"]],
    ]);
    assert.equal(status.measures[3]!.why, "Eval command exited with code 1");
    // the same rows as the measurer's own observation of the look
    const observed = await observedRows(e, compute, () => NOW);
    assert.deepEqual(status.measures, e.looks.plan.plan.map((m) => observed.rows.get(m.name)));
    assert.equal(status.schedulerError, null);
  });

  it("writes no usage key when nothing is known, and decides all the same when sacct fails", async () => {
    const { dir } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    compute.usages = null;
    const out = await runPhase(dir, deps(compute));
    assert.equal(out.kind, "decided");
    assert.equal("usage" in JSON.parse(readFileSync(dir.decision, "utf8")), false);
  });
});

describe("the run's jobs, progress and resource text", () => {
  it("names every eval of every pair up to max_repeats, and the wake", () => {
    const { dir, r } = newRun({}, { repeats: 2, max_repeats: 4 });
    const names = runJobNames(dir, r);
    assert.equal(names.size, 4 * 2 + 1);
    assert.ok(names.has(wakeJobName(r.runTag, dir)));
  });

  it("takes a listed job of the run's names as the run's only when its script lies in the run dir", () => {
    const { dir, r } = newRun();
    const names = runJobNames(dir, r);
    const evalName = [...names].find((n) => n.startsWith("eval-"))!;
    const wake = wakeJobName(r.runTag, dir);
    const job = (id: string, name: string, script: string) => ({
      id,
      arrayId: null,
      taskId: null,
      name,
      state: "PENDING",
      reason: "",
      partition: "",
      script,
    });
    const listing = new Map([
      [evalName, [
        job("1", evalName, join(dir.path, "eval-x", "job.sh")),
        job("2", evalName, join(tempDir("watch-other-"), "climb", "r1", "eval-x", "job.sh")),
        job("3", evalName, `${dir.path}-2/eval-x/job.sh`),
        job("4", evalName, ""),
      ]],
      [wake, [job("5", wake, "")]],
      ["someone-elses-job", [job("6", "someone-elses-job", join(dir.path, "x.sh"))]],
    ]);
    const ids = (d: RunDir) => liveJobsOf(listing, names, d).map((j) => j.id);
    assert.deepEqual(ids(dir), ["1", "4", "5"]);
    // the same run dir reached through a symlink
    const link = join(tempDir("watch-link-"), "r1");
    symlinkSync(realpathSync(dir.path), link);
    assert.deepEqual(ids(new RunDir(link)), ["1", "4", "5"]);
  });

  it("withOneListing() asks the queue once however many callers look", async () => {
    const compute = new FakeCompute();
    const once = withOneListing(compute);
    await Promise.all([once.activeJobs(), once.activeJobs()]);
    await once.activeJobs();
    await once.status("1");
    assert.deepEqual(compute.calls, ["squeue", "sacct"]);
  });

  it("counts the states and finds the job pending longest across polls", () => {
    const rows = [
      { name: "baseline", state: "done" as const, value: 1 },
      { name: "candidate", state: "pending" as const, jobId: "5", reason: "Priority" },
      { name: "sib-x-base", state: "pending" as const, jobId: "6" },
      { name: "sib-x-cand", state: "running" as const, jobId: "7" },
    ];
    const c = countStates(rows);
    assert.deepEqual(c, { total: 4, done: 1, running: 1, pending: 2, notSent: 0, failed: 0 });
    const t = new PendingTracker();
    t.see([rows[1]!], 0);
    const longest = t.see(rows, 90_000);
    assert.deepEqual(longest, { measure: "candidate", jobId: "5", reason: "Priority", seconds: 90 });
    assert.equal(
      progressLine(c, 185, longest, null),
      "1 done, 1 running, 2 pending of 4 measures; waited 3m05s; longest pending: candidate (job 5, Priority) for 1m30s",
    );
  });

  it("counts a measure no job was sent for apart from a pending one (--smoke: one job out of six measures)", () => {
    const rows = [
      { name: "candidate", state: "pending" as const, jobId: "5" },
      ...["baseline", "baseline#2", "candidate#2", "baseline#3", "candidate#3"].map((name) => ({
        name,
        state: "not dispatched" as const,
      })),
    ];
    assert.equal(
      progressLine(countStates(rows), 5, null, null),
      "0 done, 0 running, 1 pending, 5 not yet sent of 6 measures; waited 5s",
    );
  });

  it("counts a pending job's time from its submission, not from the first poll that saw it", () => {
    const row = (jobId: string) => ({ name: "candidate", state: "pending" as const, jobId });
    const t = new PendingTracker();
    // the wait's first poll already knows the job was submitted 40 s ago
    assert.equal(t.see([row("5")], 100_000, { candidate: 60_000 })?.seconds, 40);
    // without a submission time, from this wait's first sight of it; a job sent again starts afresh
    const u = new PendingTracker();
    u.see([row("5")], 0);
    assert.equal(u.see([row("5")], 30_000)?.seconds, 30);
    assert.equal(u.see([row("9")], 45_000)?.seconds, 0);
    // a marker written after the clock's reading (a skewed file server) is not believed: from first sight
    const v = new PendingTracker();
    assert.equal(v.see([row("5")], 1_000, { candidate: 5_000 })?.seconds, 0);
    assert.equal(v.see([row("5")], 11_000, { candidate: 50_000 })?.seconds, 10);
  });

  it("gives each pending measure's submission time, from its marker", async () => {
    const { dir, r } = newRun();
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute)); // parks: 1000 baseline, 1001 candidate
    compute.states = new Map([["1000", "PENDING"], ["1001", "PENDING"]]);
    const status = await runStatus(evaluateRun(readRunSnapshot(dir, r)), compute, () => NOW);
    const marker = (prefix: string) =>
      statSync(join(dir.path, readdirSync(dir.path).find((f) => f.startsWith(prefix))!, "submitted")).mtimeMs;
    assert.deepEqual(status.measures.map((m) => m.state), ["pending", "pending"]);
    assert.deepEqual(status.submittedMs, { baseline: marker("eval-baseline-"), candidate: marker("eval-candidate-") });
  });

  it("warns above 80% of the walltime or the memory, and prints the figures in binary units", () => {
    assert.deepEqual(usageWarnings("candidate", usage("1", { elapsedS: 48 })), []);
    assert.deepEqual(usageWarnings("candidate", usage("1", { elapsedS: 55, maxRssBytes: 1.8 * 1024 ** 3 })), [
      "measure candidate ran 55s of its 1m00s walltime (92%): raise eval_minutes in the contract",
      "measure candidate peaked at 1.8 GiB of its 2 GiB memory (90%): raise eval_mem in the contract",
    ]);
    assert.deepEqual(usageWarnings("x", elapsedOnly("1", "", 100)), [], "nothing to compare with: no warning");
    assert.equal(formatBytes(76372 * 1024), "74.6 MiB");
    assert.equal(formatBytes(512), "512 B");
    const table = formatUsageTable({ baseline: usage("1000") });
    assert.match(table, /^measure\s+job\s+elapsed\s+walltime\s+max RSS\s+memory\s+CPUs\s+CPU use$/m);
    assert.match(table, /^baseline\s+1000\s+50s\s+1m00s\s+100 MiB\s+2 GiB\s+1\s+80%$/m);
  });
});

describe("summarizeRun()", () => {
  it("reads a decided, a failed, a cancelled and an open run from their files alone", async () => {
    const { dir } = newRun();
    const compute = new FakeCompute();
    let score = 10;
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: score++ });
    await runPhase(dir, deps(compute));
    const s = summarizeRun(dir);
    assert.equal(s.state, "decided");
    assert.equal(s.verdict, "accept");
    assert.deepEqual(s.pairs, [{ baseline: 10, candidate: 11 }]);
    assert.equal(s.wallSeconds, 245, "created 03:00:00, decided 03:04:05");
    assert.equal(s.live, null);

    const open = newRun();
    const c2 = new FakeCompute();
    await runPhase(open.dir, deps(c2));
    finishEvalJob(evalSpecs(c2)[0]!, { score: 3 });
    const parked = summarizeRun(open.dir);
    assert.deepEqual([parked.state, parked.verdict, parked.values, parked.wallSeconds], [
      "parked",
      null,
      { baseline: 3 },
      null,
    ]);
    writeFailure(
      open.dir,
      failureFrom("measure candidate: boom\n--- last 1 line(s) of x ---\nout", ["candidate"], NOW),
    );
    assert.deepEqual([summarizeRun(open.dir).state, summarizeRun(open.dir).failure], [
      "failed",
      "measure candidate: boom",
    ], "a summary (runs, reports) keeps the first line; show and wait print the tail");
    writeCancel(open.dir, { cancelledAt: new Date(NOW).toISOString(), jobs: [] });
    assert.deepEqual([summarizeRun(open.dir).state, summarizeRun(open.dir).failure], ["cancelled", null]);
    assert.deepEqual(climbRunDirs(join(dir.path, "..")).map((d) => d.path), [dir.path]);
  });
});
