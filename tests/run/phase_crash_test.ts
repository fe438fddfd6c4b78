import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { type JobSpec, withDefaults } from "../../src/compute/job_spec.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { checkDecision } from "../../src/evaluation/decision_check.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { standingOf } from "../../src/evaluation/standing.ts";
import { parseMeasureName } from "../../src/measure/measure_name.ts";
import { runPhase } from "../../src/run/phase.ts";
import { readCrashes } from "../../src/rundir/crashes_file.ts";
import { readDecision } from "../../src/rundir/decision_file.ts";
import { readFailure } from "../../src/rundir/failure_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";
import { cli } from "../helpers/cli.ts";

/**
 * A candidate's failure is a verdict on that candidate, not a failure of the
 * run: with one candidate the run is decided "crashed" (nothing it measured
 * judged, every value kept); in a round the crashed arm leaves play and the
 * others go on to their verdicts, no job of theirs cancelled; a baseline's
 * failure fails the run. The same on a scheduler (a fake Slurm, jobs ending
 * as they are submitted) and on the local backend's record.
 */

const deps = (compute: FakeCompute) => ({ compute, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });
const SHAS = ["b".repeat(40), "c".repeat(40), "d".repeat(40)];

function measureOf(spec: JobSpec): string {
  const dir = basename(dirname(withDefaults(spec).script));
  return /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(dir)![1]!;
}

/** How a measure ends: a value, or exit 1 / no metric / exit 143 as a walltime kill. */
type End = "ok" | "exit" | "no-metric";

function finishing(compute: FakeCompute, endOf: (measure: string) => End, value: (measure: string) => number) {
  compute.onSubmit = (spec) => {
    if (!spec.jobName.startsWith("eval-")) return;
    const m = measureOf(spec);
    const end = endOf(m);
    if (end === "ok") finishEvalJob(spec, { score: value(m) });
    else if (end === "exit") finishEvalJob(spec, null, 1);
    else finishEvalJob(spec, { other: 1 });
  };
}

const backends = ["slurm", "local"] as const;

describe("a crashed candidate", () => {
  for (const compute of backends) {
    for (const kind of ["exit", "no-metric"] as const) {
      it(`(${compute}, ${kind}) decides the run "crashed": the crash named, every value measured kept`, async () => {
        const r = runRecordFixture({ compute }, { repeats: 3, max_repeats: 6, min_effect: 1 });
        const dir = new RunDir(join(tempDir("crash-"), "r"));
        writeRunRecord(dir, r);
        const fake = new FakeCompute();
        finishing(fake, (m) => m === "candidate#2" ? kind : "ok", () => 10);
        let outcome = await runPhase(dir, deps(fake));
        for (let i = 0; outcome.kind === "parked" && i < 3; i++) outcome = await runPhase(dir, deps(fake));
        assert.equal(outcome.kind, "decided");
        const d = readDecision(dir, r)!;
        assert.equal(d.verdict, "crashed");
        assert.equal(d.crash?.measure, "candidate#2");
        assert.equal(d.crash?.kind, kind);
        assert.match(d.reasons[0]!, /^candidate crashed: /);
        // a fake Slurm ends the look's every job as it is submitted: all of it is in; the local backend
        // measures a look pair by pair, and a crash ends it before pair 3 starts (fail fast)
        const sent = fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
        if (compute === "slurm") assert.equal(d.values["baseline#3"], 10, "the baseline's pairs are kept");
        else {
          assert.equal(d.values["baseline#3"], undefined);
          assert.deepEqual(
            [...sent].sort(),
            ["baseline", "baseline#2", "candidate", "candidate#2"],
            "pair 3 never started",
          );
          const shown = (await cli(["show", dir.path], { compute: fake })).stdout;
          assert.match(shown, /\nbaseline#3 +not dispatched +not measured: the candidate crashed before it\n/);
        }
        assert.equal(d.values["baseline#2"], 10, "the baseline's pairs measured are kept");
        assert.equal(d.values["candidate"], 10, "the candidate's pairs before the crash are kept");
        assert.equal(d.values["candidate#3"], undefined, "nothing from the crash on is read as the candidate's");
        assert.deepEqual(fake.cancelled, [], "nothing was left to cancel");
        assert.equal(readFailure(dir), null, "the run did not fail");
        assert.equal(readCrashes(dir)[0]?.measure, "candidate#2");
        const s = readRunSnapshot(dir, r);
        assert.equal(standingOf(s).kind, "decided");
        assert.deepEqual(checkDecision(s, d), [], "the decision follows from the run dir");
      });
    }

    it(`(${compute}) a baseline's failure fails the run (exit 3), as before`, async () => {
      const r = runRecordFixture({ compute }, { min_effect: 1 });
      const dir = new RunDir(join(tempDir("crash-"), "r"));
      writeRunRecord(dir, r);
      const fake = new FakeCompute();
      finishing(fake, (m) => m === "baseline" ? "exit" : "ok", () => 10);
      await assert.rejects(async () => {
        let o = await runPhase(dir, deps(fake));
        for (let i = 0; o.kind === "parked" && i < 3; i++) o = await runPhase(dir, deps(fake));
      }, EvalError);
      assert.equal(readFailure(dir)?.measure, "baseline");
      assert.equal(readDecision(dir, r), null);
      // the local backend measures a pair's baseline before its candidate: a failed baseline ends the pass first
      const sent = fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
      if (compute === "local") assert.deepEqual(sent, ["baseline"]);
    });
  }
});

describe("fail fast: a crash stops what is left of its look", () => {
  /** A Slurm run of 4 pairs whose jobs end as `ends` says when submitted, the others left queued. */
  async function slurmRun(ends: (m: string) => End | "queued", contract: Record<string, unknown> = {}) {
    const r = runRecordFixture({ compute: "slurm" }, { repeats: 4, max_repeats: 8, min_effect: 1, ...contract });
    const dir = new RunDir(join(tempDir("fail-fast-"), "r"));
    writeRunRecord(dir, r);
    const fake = new FakeCompute();
    const queued: JobSpec[] = [];
    fake.onSubmit = (spec, id) => {
      if (!spec.jobName.startsWith("eval-")) return;
      const end = ends(measureOf(spec));
      if (end === "queued") {
        queued.push(spec);
        fake.live!.set(spec.jobName, [...(fake.live!.get(spec.jobName) ?? []), id]);
      } else if (end === "ok") finishEvalJob(spec, { score: 10 });
      else if (end === "exit") finishEvalJob(spec, null, 1);
      else finishEvalJob(spec, { other: 1 });
    };
    return { r, dir, fake, queued };
  }

  it("(slurm) decides crashed at once, cancelling the look's queued jobs, recorded as outerloop's own", async () => {
    const { r, dir, fake, queued } = await slurmRun((m) =>
      m === "candidate#2" ? "exit" : ["baseline", "candidate", "baseline#2"].includes(m) ? "ok" : "queued"
    );
    const outcome = await runPhase(dir, deps(fake));
    assert.equal(outcome.kind, "decided", "no park: the verdict at once");
    const d = readDecision(dir, r)!;
    assert.equal(d.verdict, "crashed");
    assert.deepEqual(Object.keys(d.values).sort(), ["baseline", "baseline#2", "candidate"], "what finished is kept");
    const ids = queued.map((s) => fake.submittedIds[fake.submitted.indexOf(s)]!);
    assert.equal(fake.cancelled.length, 1, "one scancel");
    assert.deepEqual([...fake.cancelled[0]!].sort(), ids.sort(), "of the look's queued tasks");
    const stopped = JSON.parse(readFileSync(join(dir.path, "crashes.json"), "utf8")).stopped;
    assert.deepEqual(stopped.map((s: { measure: string }) => s.measure).sort(), queued.map(measureOf).sort());
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), [], "the decision follows from the run dir");
    // a stopped job that delivers after all is not read: the decision stands undisputed
    finishEvalJob(queued[0]!, { score: 99 });
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), []);
    // show: the stopped measures cancelled by outerloop, none failed nor to be sent again
    fake.live = new Map();
    const shown = JSON.parse((await cli(["show", dir.path, "--json"], { compute: fake })).stdout);
    const states = Object.fromEntries(shown.measures.map((m: { name: string; state: string }) => [m.name, m.state]));
    for (const s of queued) assert.equal(states[measureOf(s)], "cancelled", measureOf(s));
    assert.equal(states["candidate#2"], "crashed");
    const again = await cli(["resume", dir.path, "--json"], { compute: fake });
    assert.equal(again.code, 12);
    assert.equal(fake.submitted.filter((s) => s.jobName.startsWith("eval-")).length, 8, "nothing sent again");
  });

  it("(slurm) a round stops only the crashed candidate's measures from its crash on; the others go on", async () => {
    const SH = ["b".repeat(40), "c".repeat(40)];
    const r = runRecordFixture({
      compute: "slurm",
      candidateRef: "c1",
      candidateSha: SH[0]!,
      candidates: SH.map((sha, i) => ({ ref: `c${i + 1}`, sha })),
    }, { repeats: 4, max_repeats: 8, min_effect: 1 });
    const dir = new RunDir(join(tempDir("fail-fast-round-"), "r"));
    writeRunRecord(dir, r);
    const fake = new FakeCompute();
    const queued: JobSpec[] = [];
    fake.onSubmit = (spec, id) => {
      if (!spec.jobName.startsWith("eval-")) return;
      const m = measureOf(spec);
      if (m === "candidate-2") finishEvalJob(spec, null, 1);
      else if (parseMeasureName(m)!.pair === 1) finishEvalJob(spec, { score: 10 });
      else {
        queued.push(spec);
        fake.live!.set(spec.jobName, [...(fake.live!.get(spec.jobName) ?? []), id]);
      }
    };
    assert.equal((await runPhase(dir, deps(fake))).kind, "parked", "the others are still measuring");
    const stopped = JSON.parse(readFileSync(join(dir.path, "crashes.json"), "utf8")).stopped;
    assert.deepEqual(stopped.map((s: { measure: string }) => s.measure), ["candidate-2#2"]);
    assert.equal(fake.cancelled.flat().length, 1, "the crashed candidate's queued task alone");
    // the rest ends: the round decides without the crashed candidate, its cancelled task never sent again
    for (const s of queued) {
      if (measureOf(s) !== "candidate-2#2") finishEvalJob(s, { score: 10 + (measureOf(s).startsWith("cand") ? 5 : 0) });
    }
    fake.live = new Map();
    fake.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) {
        finishEvalJob(spec, { score: measureOf(spec).startsWith("cand") ? 15 : 10 });
      }
    };
    let outcome = await runPhase(dir, deps(fake));
    for (let i = 0; outcome.kind === "parked" && i < 6; i++) outcome = await runPhase(dir, deps(fake));
    const d = readDecision(dir, r)!;
    assert.equal(d.round!.candidates[1]!.verdict, "crashed");
    const evals = fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
    assert.equal(evals.filter((m) => m.startsWith("candidate-2")).length, 2, "not sent again");
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), []);
  });
});

describe("--smoke: each candidate measured once, alone, before the first look", () => {
  for (const compute of backends) {
    it(`(${compute}) a candidate that crashes every time costs one eval: the crash verdict, no look sent`, async () => {
      const r = runRecordFixture({ compute, smoke: true }, { repeats: 4, max_repeats: 8, min_effect: 1 });
      const dir = new RunDir(join(tempDir("smoke-"), "r"));
      writeRunRecord(dir, r);
      const fake = new FakeCompute();
      finishing(fake, (m) => m.startsWith("candidate") ? "exit" : "ok", () => 10);
      let outcome = await runPhase(dir, deps(fake));
      for (let i = 0; outcome.kind === "parked" && i < 3; i++) outcome = await runPhase(dir, deps(fake));
      assert.equal(readDecision(dir, r)!.verdict, "crashed");
      assert.deepEqual(fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf), ["candidate"]);
    });

    it(`(${compute}) a candidate that runs goes on to its look, its first measure not measured again`, async () => {
      const r = runRecordFixture({ compute, smoke: true }, { repeats: 2, max_repeats: 2, min_effect: 1 });
      const dir = new RunDir(join(tempDir("smoke-"), "r"));
      writeRunRecord(dir, r);
      const fake = new FakeCompute();
      finishing(fake, () => "ok", (m) => m.startsWith("candidate") ? 13 : 10);
      let outcome = await runPhase(dir, deps(fake));
      for (let i = 0; outcome.kind === "parked" && i < 3; i++) outcome = await runPhase(dir, deps(fake));
      assert.equal(readDecision(dir, r)!.verdict, "accept");
      const sent = fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
      assert.equal(sent[0], "candidate", "the smoke first");
      assert.deepEqual([...sent].sort(), ["baseline", "baseline#2", "candidate", "candidate#2"], "each once");
    });
  }
});

describe("a crashed run's means", () => {
  it("runs --json and the reports give the baseline's mean over its pairs, and --json each side's mean", async () => {
    const r = runRecordFixture({ compute: "slurm" }, { repeats: 3, max_repeats: 6, min_effect: 1 });
    const climb = tempDir("crash-means-");
    const dir = new RunDir(join(climb, "r"));
    writeRunRecord(dir, r);
    const fake = new FakeCompute();
    // pair i's baseline 10 + i, its candidate 20 + i; pair 2's candidate crashes
    const pair = (m: string) => parseMeasureName(m)!.pair;
    finishing(fake, (m) => m === "candidate" ? "exit" : "ok", (m) => (m.startsWith("baseline") ? 10 : 20) + pair(m));
    let outcome = await runPhase(dir, deps(fake));
    for (let i = 0; outcome.kind === "parked" && i < 3; i++) outcome = await runPhase(dir, deps(fake));
    assert.equal(readDecision(dir, r)!.verdict, "crashed");
    const entry = JSON.parse((await cli(["runs", climb, "--json"], { compute: fake })).stdout).runs[0];
    assert.equal(entry.baseline, 12, "the mean of baseline, baseline#2, baseline#3 — not pair 1's 11");
    assert.equal(entry.candidate, null, "what the candidate measured after its crash on pair 1 is not read");
    const resumed = JSON.parse((await cli(["resume", dir.path, "--json"], { compute: fake })).stdout);
    assert.deepEqual(resumed.means, { baseline: 12, candidate: null }, "the candidate crashed on pair 1: no value");
    const shown = JSON.parse((await cli(["show", dir.path, "--json"], { compute: fake })).stdout);
    assert.deepEqual(shown.means, resumed.means);
    const html = join(climb, "climb.html");
    assert.equal((await cli(["report", climb, "--html", html], { compute: fake })).code, 0);
    const baseline = /data-point="baseline"[^>]*><title>([^<]*)</.exec(readFileSync(html, "utf8"))?.[1];
    assert.equal(baseline, "run 1 (t1): baseline 12", "the climb chart's baseline figure is the mean");
  });
});

describe("a round with a crashing candidate", () => {
  for (const compute of backends) {
    it(`(${compute}) decides among the others: the crashed arm leaves play, the winner is named`, async () => {
      const r = runRecordFixture({
        compute,
        candidateRef: "c1",
        candidateSha: SHAS[0]!,
        candidates: SHAS.map((sha, i) => ({ ref: `c${i + 1}`, sha })),
      }, { repeats: 4, max_repeats: 8, min_effect: 1 });
      const dir = new RunDir(join(tempDir("crash-round-"), "r"));
      writeRunRecord(dir, r);
      const fake = new FakeCompute();
      const EFFECT = [0, 0.4, 3, -1];
      // candidate-3 crashes on its first pair
      finishing(
        fake,
        (m) => parseMeasureName(m)!.arm === 3 ? "exit" : "ok",
        (m) => {
          const ref = parseMeasureName(m)!;
          return 10 + EFFECT[ref.arm]! + ((ref.pair * 7 + ref.arm * 3) % 5 - 2) / 10;
        },
      );
      let outcome = await runPhase(dir, deps(fake));
      for (let i = 0; outcome.kind === "parked" && i < 6; i++) outcome = await runPhase(dir, deps(fake));
      assert.equal(outcome.kind, "decided");
      const d = readDecision(dir, r)!;
      assert.equal(d.verdict, "accept");
      assert.equal(d.round?.winner?.arm, 2);
      const three = d.round!.candidates[2]!;
      assert.deepEqual([three.verdict, three.standing, three.because], ["crashed", "dropped", "crashed"]);
      assert.equal(three.crash?.measure, "candidate-3");
      assert.deepEqual(fake.cancelled, [], "no other arm's job is cancelled");
      assert.equal(readFailure(dir), null);
      assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), []);
    });
  }
});

describe("resume --retry-failed", () => {
  it("takes up a failed run once its cause is fixed: only what failed is measured again, every value kept", async () => {
    const r = runRecordFixture({}, { repeats: 2, max_repeats: 2, min_effect: 1 });
    const dir = new RunDir(join(tempDir("retry-"), "r"));
    writeRunRecord(dir, r);
    const fake = new FakeCompute();
    let broken = true;
    finishing(fake, (m) => broken && m === "baseline#2" ? "exit" : "ok", (m) => m.startsWith("candidate") ? 13 : 10);
    await assert.rejects(runPhase(dir, deps(fake)), EvalError);
    assert.equal(readFailure(dir)?.measure, "baseline#2");
    const sent = () => fake.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
    const before = sent();
    const refused = await cli(["resume", dir.path, "--retry-failed"], { compute: fake });
    assert.equal(refused.code, 3, "the cause is not fixed: it fails again");
    broken = false;
    const again = await cli(["resume", dir.path, "--retry-failed", "--json"], { compute: fake });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).verdict, "accept");
    const resent = sent().slice(before.length);
    assert.ok(resent.includes("baseline#2"), `baseline#2 sent again: ${resent}`);
    assert.ok(!resent.includes("candidate"), `what delivered is kept, not measured again: ${resent}`);
    assert.equal(readFailure(dir), null);
    const history = JSON.parse(readFileSync(dir.failureHistory, "utf8")).failures;
    assert.deepEqual(history.map((h: { measure: string }) => h.measure), ["baseline#2", "baseline#2"]);
    const notFailed = await cli(["resume", dir.path, "--retry-failed"], { compute: fake });
    assert.equal(notFailed.code, 0, "a decided run answers with its verdict, retrying nothing");
  });
});
