import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { writeCancel } from "../../../src/rundir/cancel_file.ts";
import { SlurmError } from "../../../src/compute/errors.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

function newRun(): RunDir {
  const dir = new RunDir(join(tempDir("cli-json-exit-"), "r1"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({ createdAt: new Date().toISOString() }, { min_effect: 1 }));
  return dir;
}

/** Runs the command and returns its exit code and the ONE JSON object its stdout holds. */
async function jsonOf(args: string[], compute?: FakeCompute): Promise<{ code: number; j: Json; stderr: string }> {
  const run = await cli(args, compute === undefined ? {} : { compute });
  const lines = run.stdout.trim().split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `exactly one line on stdout, got: ${JSON.stringify(run.stdout)}`);
  return { code: run.code, j: JSON.parse(lines[0]!), stderr: run.stderr };
}

describe("--json prints exactly one JSON object on every exit", () => {
  it("exit 2, bad input: the error and no run", async () => {
    const { code, j } = await jsonOf(["show", join(tempDir("cli-json-exit-"), "nowhere"), "--json"]);
    assert.equal(code, 2);
    assert.equal(j.status, "error");
    assert.equal(j.exit_code, 2);
    assert.equal(j.error.kind, "bad-input");
    assert.match(j.error.message, /nowhere/);
  });

  it("exit 3, a failed run: the failure and the run's state, the same measure and message failure.json has", async () => {
    const dir = newRun();
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, null, 1);
    const first = await jsonOf(["resume", dir.path, "--json"], compute);
    for (
      const { code, j } of [
        first,
        await jsonOf(["resume", dir.path, "--json"], compute),
        await jsonOf(["wait", dir.path, "--json"], compute),
      ]
    ) {
      assert.equal(code, 3);
      assert.equal(j.error.kind, "eval-failed");
      assert.equal(j.run_dir, dir.path);
      assert.equal(j.state, "failed");
      assert.equal(j.failure.measure, first.j.failure.measure);
      assert.match(j.failure.message, /exited with code 1/);
    }
  });

  it("exit 3, a cancelled run: when it was cancelled", async () => {
    const dir = newRun();
    writeCancel(dir, { cancelledAt: "2026-12-01T10:00:00.000Z", jobs: ["7"] });
    const { code, j } = await jsonOf(["resume", dir.path, "--json"]);
    assert.equal(code, 3);
    assert.equal(j.state, "cancelled");
    assert.deepEqual(j.cancelled, { cancelled_at: "2026-12-01T10:00:00.000Z", jobs: ["7"] });
  });

  it("exit 4, the scheduler unreachable: the error and the run as it stands", async () => {
    const dir = newRun();
    const down = new FakeCompute();
    down.submit = () => Promise.reject(new SlurmError("sbatch failed: Unable to contact slurm controller"));
    const { code, j } = await jsonOf(["resume", dir.path, "--json"], down);
    assert.equal(code, 4);
    assert.equal(j.error.kind, "scheduler");
    assert.equal(j.state, "parked");
  });

  it("exit 75, parked: where the run waits, as resume --json has always printed it", async () => {
    const dir = newRun();
    const { code, j } = await jsonOf(["resume", dir.path, "--json"], new FakeCompute());
    assert.equal(code, 75);
    assert.equal(j.status, "parked");
    assert.equal(j.run_dir, dir.path);
  });
});
