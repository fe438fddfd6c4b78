import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { checkDecision } from "../../src/evaluation/decision_check.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { runPhase } from "../../src/run/phase.ts";
import { readDecision } from "../../src/rundir/decision_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
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
