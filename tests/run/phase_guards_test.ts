import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { checkDecision } from "../../src/evaluation/decision_check.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { runPhase } from "../../src/run/phase.ts";
import { readDecision } from "../../src/rundir/decision_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { cli } from "../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * Guards from the same eval: the benchmark prints `{"score": …, "size": …}`
 * and the contract's guard on `size` is judged from those same jobs — no job
 * of its own — beside the metric: a guard that regresses past its tolerance
 * rejects a candidate that improved.
 */

const deps = (compute: FakeCompute) => ({ compute, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });

async function run(candidateSize: number) {
  const r = runRecordFixture({}, {
    repeats: 4,
    max_repeats: 4,
    min_effect: 0.5,
    guards: [{ metric: "size", direction: "minimize", tolerance: "1%" }],
  });
  const dir = new RunDir(join(tempDir("guards-"), "r"));
  writeRunRecord(dir, r);
  const compute = new FakeCompute();
  let i = 0;
  compute.onSubmit = (spec) => {
    if (!spec.script || !/eval-(baseline|candidate)/.test(spec.script)) return;
    const isCand = /eval-candidate/.test(spec.script);
    const jitter = (i++ % 3) / 100;
    finishEvalJob(spec, { score: (isCand ? 12 : 10) + jitter, size: (isCand ? candidateSize : 100) + jitter });
  };
  let outcome = await runPhase(dir, deps(compute));
  for (let k = 0; outcome.kind === "parked" && k < 3; k++) outcome = await runPhase(dir, deps(compute));
  assert.equal(outcome.kind, "decided");
  const jobs = compute.calls.filter((c) => c.startsWith("sbatch"));
  return { d: readDecision(dir, r)!, s: readRunSnapshot(dir, r), jobs };
}

describe("a guard read from the benchmark's own result", () => {
  it("holds: the candidate is accepted, with no job of the guard's own", async () => {
    const { d, s, jobs } = await run(100);
    assert.equal(d.verdict, "accept", d.reasons.join("\n"));
    assert.ok(d.reasons.some((x) => /size/.test(x)), "the guard is in the reasons");
    assert.deepEqual(jobs, ["sbatch --array"], "one array of the look's eight measures: no job of the guard's own");
    assert.deepEqual(checkDecision(s, d), []);
  });

  it("regresses by 5%: the candidate is rejected for it", async () => {
    const { d, s } = await run(105);
    assert.equal(d.verdict, "reject", d.reasons.join("\n"));
    assert.ok(d.reasons.some((x) => /size/.test(x)));
    assert.deepEqual(checkDecision(s, d), []);
  });
});

/**
 * A round of two candidates with a guard: candidate 2 is faster but 5% bigger, candidate 1 a little
 * faster and as small. The guard is read from the same jobs in the screen and the confirmation; the
 * round's reports list each confirmed candidate's guard beside its siblings.
 */
async function guardedRound() {
  const shas = ["b".repeat(40), "c".repeat(40)];
  const r = runRecordFixture({
    candidateRef: "c1",
    candidateSha: shas[0]!,
    candidates: shas.map((sha, i) => ({ ref: `c${i + 1}`, sha })),
  }, {
    repeats: 4,
    max_repeats: 8,
    min_effect: 0.5,
    guards: [{ metric: "size", direction: "minimize", tolerance: "1%" }],
  });
  const dir = new RunDir(join(tempDir("guards-round-"), "r"));
  writeRunRecord(dir, r);
  const compute = new FakeCompute();
  let i = 0;
  compute.onSubmit = (spec) => {
    const arm = /eval-(baseline|candidate-2|candidate)[-#]/.exec(spec.script ?? "")?.[1];
    if (arm === undefined) return;
    const jitter = (i++ % 3) / 100;
    const score = { baseline: 10, candidate: 12, "candidate-2": 14 }[arm]! + jitter;
    const size = { baseline: 100, candidate: 100, "candidate-2": 105 }[arm]! + jitter;
    finishEvalJob(spec, { score, size });
  };
  let outcome = await runPhase(dir, deps(compute));
  for (let k = 0; outcome.kind === "parked" && k < 6; k++) outcome = await runPhase(dir, deps(compute));
  assert.equal(outcome.kind, "decided");
  return { dir, r, compute };
}

describe("a guard in a round", () => {
  it("drops the candidate whose guard regresses, picks the other, and every report lists the guard", async () => {
    const { dir, r, compute } = await guardedRound();
    const d = readDecision(dir, r)!;
    assert.equal(d.verdict, "accept", d.reasons.join("\n"));
    assert.equal(d.round?.winner?.arm, 1, "the smaller candidate wins though the other is faster");
    const guardJobs = compute.submitted.filter((s) => /guard/.test(s.jobName));
    assert.deepEqual(guardJobs, [], "no job of the guard's own");
    assert.deepEqual(checkDecision(readRunSnapshot(dir, r), d), []);
    const md = (await cli(["report", dir.path, "--md"], { compute })).stdout;
    assert.match(
      md,
      /Guards \(read from the benchmark's own result\), on each confirmed candidate's confirmation pairs:/,
    );
    assert.match(md, /\| `candidate` +\| `size` +\| held +\|/);
    const file = join(dirname(dir.path), "report.html");
    assert.equal((await cli(["report", dir.path, "--html", file], { compute })).code, 0);
    const html = readFileSync(file, "utf8");
    assert.match(html, /<h2>Guards<\/h2>/);
    assert.match(
      html,
      /Guards \(read from the benchmark&#39;s own result\)|Guards \(read from the benchmark's own result\)/,
    );
  });
});
