import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { runPhase } from "../../src/run/phase.ts";
import { RunCancelledError, writeCancel } from "../../src/rundir/cancel_file.ts";
import { failureFrom, writeFailure } from "../../src/rundir/failure_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { type RunRecord, RunRecordError, writeRunRecord } from "../../src/rundir/run_record.ts";
import { checkDecision } from "../../src/evaluation/decision_check.ts";
import { finishedOutcome } from "../../src/evaluation/outcome.ts";
import { summarizeRun } from "../../src/views/run_summary.ts";
import { standingOf } from "../../src/evaluation/standing.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";
import { withDefaults } from "../../src/compute/job_spec.ts";

const NOW = Date.parse("2026-01-02T03:04:05Z");
const deps = (compute: FakeCompute, now = NOW) => ({ compute, self: ["/bin/outerloop"], now: () => now, env: {} });

function newRun(over: Partial<RunRecord> = {}, contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("standing-"), "r1"));
  const r = runRecordFixture(over, contract);
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, r);
  return { dir, r };
}

/** A Slurm run decided through a real pass: the baseline scores 10, the candidate 12 (accept at min_effect 1). */
async function decidedRun(contract: Record<string, unknown> = {}) {
  const { dir, r } = newRun({}, { min_effect: 1, ...contract });
  const compute = new FakeCompute();
  await runPhase(dir, deps(compute)); // parks
  for (const s of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
    finishEvalJob(s, { score: s.jobName.includes("-baseline") ? 10 : 12 });
  }
  const outcome = await runPhase(dir, deps(compute, NOW + 60_000));
  assert.equal(outcome.kind, "decided");
  return { dir, r };
}

describe("standingOf()", () => {
  it("is parked for an open Slurm run, and failed once failure.json is there", () => {
    const { dir, r } = newRun();
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "parked");
    writeFailure(dir, failureFrom("measure candidate: boom", ["candidate"], NOW));
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "failed");
  });

  it("is interrupted for an open local run that nothing holds, measuring while a live process on this host does", () => {
    const { dir, r } = newRun({ compute: "local" });
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "interrupted");
    const holder = { pid: process.pid, host: hostname(), acquired_at: "2026-01-02T03:04:05Z", token: "t" };
    writeFileSync(dir.lock, JSON.stringify(holder));
    const s = standingOf(readRunSnapshot(dir, r));
    assert.equal(s.kind, "measuring");
    writeFileSync(dir.lock, JSON.stringify({ ...holder, host: "elsewhere" }));
    assert.equal(
      standingOf(readRunSnapshot(dir, r)).kind,
      "interrupted",
      "a holder on another host cannot be seen alive from here",
    );
  });

  it("is decided once decision.json is there", async () => {
    const { dir, r } = await decidedRun();
    const s = standingOf(readRunSnapshot(dir, r));
    assert.equal(s.kind, "decided");
    assert.equal(s.kind === "decided" && s.decision.verdict, "accept");
  });

  it("is cancelled when the cancel came first, whatever verdict was reached after it", async () => {
    const { dir, r } = await decidedRun();
    writeCancel(dir, { cancelledAt: "2026-01-02T03:04:30.000Z", jobs: [] }); // before the decision at +60 s
    const s = standingOf(readRunSnapshot(dir, r));
    assert.deepEqual(s.kind === "cancelled" && s.lateOutcome, "decided");
    assert.throws(
      () => finishedOutcome(readRunSnapshot(dir, r)),
      (e) => e instanceof RunCancelledError && /after the cancel/.test(e.message),
    );
    assert.equal(summarizeRun(dir).state, "cancelled");
    assert.equal(summarizeRun(dir).verdict, null);
  });

  it("stays decided when a cancel came after the verdict", async () => {
    const { dir, r } = await decidedRun();
    writeCancel(dir, { cancelledAt: "2026-01-02T04:00:00.000Z", jobs: [] });
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "decided");
  });

  it("is calibrated for a calibration run with its report, never parked", async () => {
    const { dir, r } = newRun({ kind: "calibrate", candidateSha: "a".repeat(40) }, { repeats: 2, max_repeats: 2 });
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute));
    let i = 0;
    for (const s of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
      finishEvalJob(s, { score: 10 + i++ });
    }
    assert.equal((await runPhase(dir, deps(compute))).kind, "calibrated");
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "calibrated");
    assert.equal(summarizeRun(dir).state, "calibrated");
  });
});

describe("checkDecision()", () => {
  it("finds nothing to say about a decision a pass wrote", async () => {
    const { dir, r } = await decidedRun({ repeats: 3 });
    const s = standingOf(readRunSnapshot(dir, r));
    assert.deepEqual(s.kind === "decided" && checkDecision(readRunSnapshot(dir, r), s.decision), []);
    assert.deepEqual(summarizeRun(dir).disputes, []);
  });

  it("names a flipped verdict, and resume refuses to report it (exit 2, the file left as it is)", async () => {
    const { dir, r } = await decidedRun();
    const json = JSON.parse(readFileSync(dir.decision, "utf8"));
    writeFileSync(dir.decision, JSON.stringify({ ...json, verdict: "reject" }));
    const s = standingOf(readRunSnapshot(dir, r));
    const found = s.kind === "decided" ? checkDecision(readRunSnapshot(dir, r), s.decision) : [];
    assert.deepEqual(found, ["its verdict is reject, but the results on disk give accept"]);
    const before = readFileSync(dir.decision, "utf8");
    assert.throws(
      () => finishedOutcome(readRunSnapshot(dir, r)),
      (e) => e instanceof RunRecordError && e.problem === "disputed" && e.path === dir.decision,
    );
    assert.equal(readFileSync(dir.decision, "utf8"), before);
    assert.equal(summarizeRun(dir).disputes.length, 1);
  });

  it("names a changed value and the verdict it would give", async () => {
    const { dir, r } = await decidedRun();
    const json = JSON.parse(readFileSync(dir.decision, "utf8"));
    writeFileSync(dir.decision, JSON.stringify({ ...json, values: { ...json.values, candidate: 20 } }));
    const s = standingOf(readRunSnapshot(dir, r));
    const found = s.kind === "decided" ? checkDecision(readRunSnapshot(dir, r), s.decision) : [];
    assert.deepEqual(found, ["it gives candidate = 20 where the run's result is 12"]);
  });

  it("names a result that is gone from disk", async () => {
    const { dir, r } = await decidedRun();
    const s = standingOf(readRunSnapshot(dir, r));
    const evalDir = readdirSync(dir.path).find((n) => n.startsWith("eval-candidate-"))!;
    writeFileSync(join(dir.path, evalDir, "result.json"), "{}");
    const found = s.kind === "decided" ? checkDecision(readRunSnapshot(dir, r), s.decision) : [];
    assert.equal(found.length, 1);
    assert.match(found[0]!, /^the result of measure "candidate" cannot be read/);
  });

  it("checks a repeated design's decision by the method it names: one made by Student t is not disputed", async () => {
    // six pairs improving by 2 or so, pair 4 stalled: the screened t accepts, Student t cannot tell
    const { dir, r } = newRun({}, { repeats: 6, min_effect: 1 });
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute));
    const cand: Record<string, number> = { "": 12, "#2": 12.1, "#3": 11.9, "#4": -30, "#5": 12.2, "#6": 11.8 };
    for (const spec of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
      const m = /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(basename(dirname(withDefaults(spec).script)))![1]!;
      finishEvalJob(spec, { score: m.startsWith("baseline") ? 10 : cand[m.slice("candidate".length)]! });
    }
    await runPhase(dir, deps(compute, NOW + 60_000));
    const json = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(json.verdict, "accept");
    assert.deepEqual(json.benchmark.set_aside, [4]);
    const read = () => {
      const s = standingOf(readRunSnapshot(dir, r));
      return s.kind === "decided" ? checkDecision(readRunSnapshot(dir, r), s.decision) : ["not decided"];
    };
    assert.deepEqual(read(), []);
    // what the same results gave before the screened t: Student t, inconclusive
    const { set_aside: _, ...tBenchmark } = json.benchmark;
    const before = {
      ...json,
      verdict: "inconclusive",
      benchmark: { ...tBenchmark, method: "paired Student t interval" },
    };
    writeFileSync(dir.decision, JSON.stringify(before));
    assert.deepEqual(read(), []);
    // the screened t's own words with Student t's verdict do not follow from the results
    writeFileSync(dir.decision, JSON.stringify({ ...json, verdict: "inconclusive" }));
    assert.deepEqual(read(), ["its verdict is inconclusive, but the results on disk give accept"]);
  });

  it("checks a calibrated run's decision by the fence of its contract's noise (issue 31)", async () => {
    // six pairs improving by 2 or so, pair 4 by 0.5 below the rest: beyond the fence of noise sd 0.4, which the
    // ESD test at six pairs cannot see
    const { dir, r } = newRun({}, { repeats: 6, min_effect: 1, noise: { sd: 0.4, pairs: 20 } });
    const compute = new FakeCompute();
    await runPhase(dir, deps(compute));
    const cand: Record<string, number> = { "": 12, "#2": 12.6, "#3": 11.4, "#4": 9.5, "#5": 12.3, "#6": 11.7 };
    for (const spec of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
      const m = /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(basename(dirname(withDefaults(spec).script)))![1]!;
      finishEvalJob(spec, { score: m.startsWith("baseline") ? 10 : cand[m.slice("candidate".length)]! });
    }
    await runPhase(dir, deps(compute, NOW + 60_000));
    const json = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(json.verdict, "accept");
    assert.deepEqual(json.benchmark.set_aside, [4]);
    assert.match(json.benchmark.method, /beyond the fence of the calibrated noise \(sd 0\.4 over 20 A\/A pairs\)/);
    const read = () => {
      const s = standingOf(readRunSnapshot(dir, r));
      return s.kind === "decided" ? checkDecision(readRunSnapshot(dir, r), s.decision) : ["not decided"];
    };
    assert.deepEqual(read(), []);
    writeFileSync(dir.decision, JSON.stringify({ ...json, verdict: "inconclusive" }));
    assert.deepEqual(read(), ["its verdict is inconclusive, but the results on disk give accept"]);
  });
});
