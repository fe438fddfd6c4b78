import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { phaseDeps } from "../../../src/cli/shared/phase_deps.ts";
import { startAndReport } from "../../../src/cli/shared/start_run.ts";
import { waitAfterPark, waitAndReport } from "../../../src/cli/shared/wait_output.ts";
import { EXIT } from "../../../src/exit_codes.ts";
import { runPhase } from "../../../src/run/phase.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { readRunRecord } from "../../../src/rundir/run_record.ts";
import { fakeCliDeps } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { makeRepo } from "../../helpers/git_repo.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

/** A run parked after its first pass, and the fake backend its jobs sit in. */
async function parked() {
  const { repo, shas } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
  const record = runRecordFixture({
    repo,
    baseSha: shas[0]!,
    candidateSha: shas[1]!,
    candidates: [{ ref: "main", sha: shas[1]! }],
  }, { repeats: 2, max_repeats: 2, min_effect: 1 });
  const runDir = new RunDir(join(tempDir("wait-output-"), "r1"));
  const compute = new FakeCompute();
  const { deps } = fakeCliDeps({ compute });
  assert.equal(await startAndReport(record, deps, { runDir, mode: "slurm", json: true, wait: null }), EXIT.parked);
  return { runDir, compute };
}

const finishAll = (compute: FakeCompute) => {
  for (const spec of compute.submitted) if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: 10 });
};

describe("waitAndReport()", () => {
  it("waits until the run is decided and prints the decision as resume does, with its exit code", async () => {
    const { runDir, compute } = await parked();
    const { deps, run } = fakeCliDeps({ compute, onSleep: () => finishAll(compute) });
    const record = readRunRecord(runDir);
    const code = await waitAndReport(runDir, record, deps, {
      timing: { pollS: 5, timeoutS: null },
      json: true,
      pass: () => runPhase(runDir, phaseDeps(deps, "slurm", "")),
    });
    const json = JSON.parse(run().stdout);
    assert.equal(json.status, "decided");
    assert.notEqual(code, EXIT.parked);
  });

  it("on a timeout, detaches: exit 75, saying how to come back, changing nothing", async () => {
    const { runDir, compute } = await parked();
    const { deps, run } = fakeCliDeps({ compute });
    const code = await waitAndReport(runDir, readRunRecord(runDir), deps, {
      timing: { pollS: 5, timeoutS: 0 },
      json: false,
      pass: () => runPhase(runDir, phaseDeps(deps, "slurm", "")),
    });
    assert.equal(code, EXIT.parked);
    assert.ok(
      run().stderr.endsWith(
        "outerloop: not decided after 0s (--timeout); nothing was changed: the run's jobs keep running and its wake " +
          `job decides it; come back with "outerloop wait ${runDir.path}"\n`,
      ),
      run().stderr,
    );
  });
});

describe("waitAfterPark()", () => {
  it("says on stderr what the first pass parked on, then waits like outerloop wait", async () => {
    const { runDir, compute } = await parked();
    const { deps, run } = fakeCliDeps({ compute, onSleep: () => finishAll(compute) });
    const wake = { jobId: "9", dependency: "afterany:1", begin: null, submittedAt: "", pending: ["1"] };
    await waitAfterPark(runDir, deps, { kind: "parked", pending: ["1", "2"], wake }, {
      timing: { pollS: 5, timeoutS: null },
      json: true,
      pass: () => runPhase(runDir, phaseDeps(deps, "slurm", "")),
    });
    const out = run();
    assert.match(
      out.stderr,
      /^outerloop: parked on job\(s\) 1, 2 behind wake job 9; waiting for the verdict \(Ctrl-C detaches\)\n/,
    );
    assert.equal(JSON.parse(out.stdout).status, "decided");
  });
});
