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
        assert.equal(d.values["baseline#3"], 10, "the baseline's pairs are kept");
        assert.equal(d.values["candidate"], 10, "the candidate's pairs before the crash are kept");
        assert.equal(d.values["candidate#3"], undefined, "nothing from the crash on is read as the candidate's");
        assert.deepEqual(fake.cancelled, [], "no job cancelled");
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
