import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { type JobSpec, withDefaults } from "../../src/compute/job_spec.ts";
import { parseMeasureName } from "../../src/measure/measure_name.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { readRunRecord, type RunRecord, writeRunRecord } from "../../src/rundir/run_record.ts";
import { runJobNames } from "../../src/plan/run_jobs.ts";
import { checkDecision } from "../../src/evaluation/decision_check.ts";
import { standingOf } from "../../src/evaluation/standing.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { readDecision } from "../../src/rundir/decision_file.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const deps = (compute: FakeCompute) => ({ compute, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });
const SHAS = ["b".repeat(40), "c".repeat(40), "d".repeat(40)];

function measureOf(spec: JobSpec): string {
  const dir = basename(dirname(withDefaults(spec).script));
  return /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(dir)![1]!;
}

/** A round of three candidates: candidate (arm 1) +0.4, candidate-2 +3, candidate-3 −1, a little noise by pair. */
function round(contract: Record<string, unknown> = {}): { dir: RunDir; r: RunRecord } {
  const r = runRecordFixture({
    candidateRef: "c1",
    candidateSha: SHAS[0]!,
    candidates: SHAS.map((sha, i) => ({ ref: `c${i + 1}`, sha })),
  }, { repeats: 4, max_repeats: 8, min_effect: 1, ...contract });
  const dir = new RunDir(join(tempDir("round-"), "r"));
  writeRunRecord(dir, r);
  return { dir, r };
}

const EFFECT = [0, 0.4, 3, -1];
const value = (measure: string) => {
  const ref = parseMeasureName(measure)!;
  return 10 + EFFECT[ref.arm]! + ((ref.pair * 7 + ref.arm * 3) % 5 - 2) / 10;
};

describe("runPhase() on a round of K candidates", () => {
  it("screens every candidate on the first pairs, confirms the leader alone on fresh pairs, and names it the winner", async () => {
    const { dir, r } = round();
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: value(measureOf(spec)) });
    };
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "decided");
    const measured = compute.submitted.filter((s) => s.jobName.startsWith("eval-")).map(measureOf);
    // the screen: every candidate on pairs 1 and 2, beside one baseline per pair
    assert.deepEqual(measured.slice(0, 4), ["baseline", "candidate", "candidate-2", "candidate-3"]);
    assert.ok(measured.includes("candidate-3#2"));
    // once dropped, a candidate is measured no more; the confirmation measures the leader alone
    const later = measured.filter((m) => (parseMeasureName(m)?.pair ?? 1) > 4);
    assert.ok(later.length > 0);
    assert.deepEqual([...new Set(later.map((m) => parseMeasureName(m)!.arm))].sort(), [0, 2]);
    const d = readDecision(dir, r)!;
    assert.equal(d.verdict, "accept");
    assert.equal(d.round?.winner?.arm, 2);
    assert.deepEqual([d.round!.winner!.ref, d.round!.winner!.sha], ["c2", SHAS[1]], "the commit to merge");
    assert.equal(d.candidateSha, SHAS[1], "candidate_sha is the winner's, the commit to merge, as --json has it");
    assert.equal(JSON.parse(readFileSync(dir.decision, "utf8")).candidate_sha, SHAS[1], "in decision.json itself");
    assert.ok(d.round!.winner!.firstPair > 2, "the winner's interval rests on pairs that did not choose it");
    assert.deepEqual(d.round!.candidates.map((c) => [c.arm, c.ref, c.verdict]), [
      [1, "c1", d.round!.candidates[0]!.verdict],
      [2, "c2", "accept"],
      [3, "c3", d.round!.candidates[2]!.verdict],
    ]);
    assert.notEqual(d.round!.candidates[2]!.verdict, "accept");
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), [], "the decision follows from the results on disk");
    assert.equal(standingOf(readRunSnapshot(dir, r)).kind, "decided");
  });

  it("parks on each batch and decides on later passes, dispatching nothing twice", async () => {
    const { dir, r } = round();
    const compute = new FakeCompute();
    let passes = 0;
    for (;;) {
      const outcome = await runPhase(dir, deps(compute));
      passes++;
      if (outcome.kind !== "parked") break;
      assert.ok(passes < 20, "the round ends");
      for (const s of compute.submitted.filter((x) => x.jobName.startsWith("eval-"))) {
        finishEvalJob(s, { score: value(measureOf(s)) });
      }
      compute.live = new Map();
    }
    assert.ok(passes >= 3, `screen, then confirmation: ${passes} passes`);
    // a job script is its measure's (or pair's) own: submitted once, as a job or as a task of an array
    const scripts = compute.submitted.filter((s) => s.jobName.startsWith("eval-")).map((s) => withDefaults(s).script);
    assert.ok(scripts.length >= 8, `${scripts.length} evals`);
    assert.equal(new Set(scripts).size, scripts.length, "no measure submitted twice");
    assert.equal(readDecision(dir, r)!.round?.winner?.arm, 2);
  });

  it("runs a same-job round's pair in one job: the baseline and every candidate in play", async () => {
    const { dir } = round({ pairing: "same-job" });
    const compute = new FakeCompute();
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "parked");
    const pairJobs = compute.submitted.filter((s) =>
      /^pair\d+-[0-9a-f]{40}$/.test(basename(dirname(withDefaults(s).script)))
    );
    assert.equal(pairJobs.length, 2, "the screen's two pairs, one job each");
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [2], "as the two tasks of one array");
    const body = readFileSync(withDefaults(pairJobs[1]!).script, "utf8");
    assert.equal((body.match(/ol_one /g) ?? []).length, 4, "baseline#2 and its three candidates");
    // cancel finds them: a round's pair job names and its arrays' are the run's by their form (and their
    // script, by liveJobsOf)
    const names = runJobNames(dir, readRunRecord(dir));
    const array = compute.arrays[0]!.spec.jobName;
    assert.ok(names.has(array), array);
    assert.ok(names.has("eval-t1-same#3-0123456789abcdef"), "a later pair job");
    assert.equal(names.has(array.replace("eval-t1-", "eval-t2-")), false, "another run tag's");
  });

  it("writes candidate_sha null in decision.json when no candidate wins", async () => {
    const { dir, r } = round({ min_effect: 50 });
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: value(measureOf(spec)) });
    };
    assert.equal((await runPhase(dir, deps(compute))).kind, "decided");
    const j = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(j.round.winner, null);
    assert.equal(j.candidate_sha, null, "no winner, no commit to merge");
    assert.equal(readDecision(dir, r)!.candidateSha, null);
  });

  it("reads a round decided before issue 30 (candidate_sha the first candidate's) as naming its winner", async () => {
    const { dir, r } = round();
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: value(measureOf(spec)) });
    };
    await runPhase(dir, deps(compute));
    const j = JSON.parse(readFileSync(dir.decision, "utf8"));
    writeFileSync(dir.decision, JSON.stringify({ ...j, candidate_sha: SHAS[0] }));
    const d = readDecision(dir, r)!;
    assert.equal(d.candidateSha, SHAS[1], "the winner's, not the first candidate's");
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), [], "still the run's, and it follows from its results");
    // a sha that is none of the run's candidates is another run's decision
    writeFileSync(dir.decision, JSON.stringify({ ...j, candidate_sha: "e".repeat(40) }));
    assert.throws(() => readDecision(dir, r), /belongs to another run/);
  });
});
