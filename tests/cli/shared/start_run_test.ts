import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startAndReport } from "../../../src/cli/shared/start_run.ts";
import { EXIT } from "../../../src/exit_codes.ts";
import { readRunRecord } from "../../../src/rundir/run_record.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { fakeCliDeps } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { makeRepo } from "../../helpers/git_repo.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

/** A record of two real commits (the run pins them), for a fresh run dir. */
function prepared() {
  const { repo, shas } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
  const record = runRecordFixture({
    repo,
    baseSha: shas[0]!,
    candidateSha: shas[1]!,
    candidates: [{ ref: "main", sha: shas[1]! }],
  }, { repeats: 2, max_repeats: 2, min_effect: 1 });
  return { record, runDir: new RunDir(join(tempDir("start-run-"), "r1")) };
}

describe("startAndReport()", () => {
  it("creates the run dir, freezes the record, makes the first pass and prints the park (exit 75)", async () => {
    const { record, runDir } = prepared();
    const { deps, run } = fakeCliDeps();
    const code = await startAndReport(record, deps, { runDir, mode: "slurm", json: true, wait: null });
    assert.equal(code, EXIT.parked);
    assert.equal(readRunRecord(runDir).baseSha, record.baseSha);
    const json = JSON.parse(run().stdout);
    assert.deepEqual([json.status, json.run_dir], ["parked", runDir.path]);
  });

  it("with --wait, waits the park out and prints the verdict instead", async () => {
    const { record, runDir } = prepared();
    const compute = new FakeCompute();
    let release = false;
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-") && release) finishEvalJob(spec, { score: 10 });
    };
    const { deps, run } = fakeCliDeps({
      compute,
      onSleep: () => {
        // the jobs end while it waits: finish every eval submitted so far
        for (const spec of compute.submitted) if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: 10 });
        release = true;
      },
    });
    const code = await startAndReport(record, deps, {
      runDir,
      mode: "slurm",
      json: true,
      wait: { pollS: 1, timeoutS: 60 },
    });
    const out = run();
    assert.match(out.stderr, /parked on .* behind wake job .*; waiting for the verdict \(Ctrl-C detaches\)/);
    const json = JSON.parse(out.stdout);
    assert.equal(json.status, "decided");
    assert.equal(
      code,
      json.verdict === "accept" ? EXIT.ok : json.verdict === "reject" ? EXIT.rejected : EXIT.inconclusive,
    );
  });
});
