import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { writeCancel } from "../../../src/rundir/cancel_file.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

function newRun(contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("cli-resume-"), "r1"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({ createdAt: new Date().toISOString() }, { min_effect: 1, ...contract }));
  return dir;
}

describe("outerloop resume --wake (what a wake job runs)", () => {
  it("exits 0 whenever its pass ran: parked, rejected, failed for good or cancelled, where resume alone does not", async () => {
    const parked = newRun();
    assert.equal((await cli(["resume", parked.path])).code, 75);
    assert.equal((await cli(["resume", "--wake", parked.path])).code, 0);

    const rejected = newRun();
    const compute = new FakeCompute();
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: spec.jobName.includes("-baseline") ? 10 : 9 });
    };
    const wake = await cli(["resume", "--wake", rejected.path], { compute });
    assert.equal(wake.code, 0, wake.stderr);
    assert.match(wake.stdout, /verdict: reject/);
    assert.match(wake.stderr, /the pass ended with exit 10; the wake job exits 0, its pass having run/);
    assert.equal((await cli(["resume", rejected.path], { compute })).code, 10, "by hand, the verdict's code");

    const failed = newRun();
    const crashing = new FakeCompute();
    crashing.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, null, 1);
    const f = await cli(["resume", "--wake", failed.path], { compute: crashing });
    assert.equal(f.code, 0);
    assert.match(f.stderr, /exited with code 1/);
    assert.match(f.stderr, /the pass ended with exit 3; the wake job exits 0/);

    const cancelled = newRun();
    writeCancel(cancelled, { cancelledAt: new Date().toISOString(), jobs: [] });
    const c = await cli(["resume", "--wake", cancelled.path]);
    assert.equal(c.code, 0);
    assert.match(c.stderr, /was cancelled by user/);
  });

  it("still fails when the pass could not run: bad input is exit 2", async () => {
    const r = await cli(["resume", "--wake", join(tempDir("cli-resume-"), "nothing")]);
    assert.equal(r.code, 2);
  });
});
