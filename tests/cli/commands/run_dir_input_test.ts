import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { makeRepo } from "../../helpers/git_repo.ts";
import { readOnlyDir, readOnlyUnavailable } from "../../helpers/read_only.ts";
import { assertRefused } from "../../helpers/refused.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * RUN_DIR of `resume` and `show`, and a run dir that cannot be written:
 * refused with exit 2 in one line, before any write.
 */

/** A run dir holding `run.json` of the fixture run (Slurm, fake), nothing dispatched yet. */
function recordedRun(parent = tempDir("rundir-input-"), name = "run"): RunDir {
  const dir = new RunDir(join(parent, name));
  writeRunRecord(dir, runRecordFixture());
  return dir;
}

/** Takes a recorded run to its verdict with a fake scheduler: baseline `base`, candidate `cand`. */
async function decide(dir: RunDir, base: number, cand: number): Promise<{ code: number; stderr: string }> {
  const compute = new FakeCompute();
  const parked = await cli(["resume", dir.path], { compute });
  assert.equal(parked.code, 75, parked.stderr);
  for (const spec of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
    finishEvalJob(spec, { score: spec.jobName.includes("-baseline-") ? base : cand });
  }
  return await cli(["resume", dir.path], { compute });
}

describe("resume and show refuse a RUN_DIR no run can live at", () => {
  const file = join(tempDir("rundir-input-"), "a-file");
  writeFileSync(file, "");
  for (const command of ["resume", "show"]) {
    it(`${command} refuses "", a file and the root, and takes one RUN_DIR only`, async () => {
      assertRefused(await cli([command, ""]), /^outerloop: error: Invalid RUN_DIR "": name a directory for the run$/m);
      assertRefused(
        await cli([command, " "]),
        /^outerloop: error: Invalid RUN_DIR " ": name a directory for the run$/m,
      );
      assertRefused(await cli([command, file]), /Invalid RUN_DIR ".*a-file": it exists and is not a directory/);
      assertRefused(await cli([command, "/"]), /Invalid RUN_DIR "\/": the file system root cannot be a run dir/);
      assertRefused(
        await cli([command, "a", "b"]),
        new RegExp(`Unexpected argument "b": "outerloop ${command}" takes`),
      );
      assertRefused(await cli([command]), /Missing RUN_DIR/);
    });
  }

  it("resume refuses a run.json whose contract's seed_env the eval job sets itself, at the field's path", async () => {
    const dir = recordedRun();
    const rec = JSON.parse(readFileSync(dir.runRecord, "utf8"));
    rec.contract.seed_env = "OUTERLOOP_RESULT";
    writeFileSync(dir.runRecord, JSON.stringify(rec));
    const compute = new FakeCompute();
    const r = await cli(["resume", dir.path], { compute });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /"OUTERLOOP_RESULT" is set by the eval job itself[^\n]*\n\s*→ at contract\.seed_env/);
    assert.deepEqual(compute.calls, []);
  });
});

describe("a run dir on a read-only file system", () => {
  const skip = readOnlyUnavailable() ?? false;

  it(
    "is refused by measure (new or existing) and by resume of an undecided run; show and a decided run's resume read it",
    {
      skip,
    },
    async () => {
      const ro = readOnlyDir()!;
      try {
        const undecided = recordedRun(ro.dir, "undecided");
        const decided = recordedRun(ro.dir, "decided");
        assert.equal((await decide(decided, 10, 12)).code, 0);
        const emptyDir = join(ro.dir, "empty");
        mkdirSync(emptyDir);
        ro.seal();
        const unwritable = ro.how === "mount" ? "it is on a read-only file system" : "this user may not create files";

        const resumed = await cli(["resume", undecided.path], { compute: new FakeCompute() });
        assertRefused(resumed, new RegExp(`^outerloop: error: Cannot write in RUN_DIR ".*undecided": ${unwritable}`));
        assert.match(resumed.stderr, /; a pass writes its lock, results and verdict there: make it writable$/m);

        const shown = await cli(["show", undecided.path, "--json"], { compute: new FakeCompute() });
        assert.equal(shown.code, 0, shown.stderr);
        assert.equal(JSON.parse(shown.stdout).verdict, null);

        const again = await cli(["resume", decided.path], { compute: new FakeCompute() });
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /^verdict: accept$/m);

        const { repo } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
        const contract = join(tempDir("rundir-input-"), "c.json");
        writeFileSync(contract, JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize" }));
        for (
          const [runDir, why] of [[emptyDir, `Cannot write in --run-dir ".*empty": ${unwritable}`], [
            join(ro.dir, "new"),
            `Cannot create --run-dir ".*new": E(ROFS|ACCES)`,
          ]] as const
        ) {
          const compute = new FakeCompute();
          const args = ["--repo", repo, "--base", "main~1", "--candidate", "main", "--contract", contract];
          const r = await cli(["measure", ...args, "--run-dir", runDir], { compute });
          assertRefused(r, new RegExp(`^outerloop: error: ${why}.*; pick a writable directory$`, "m"));
          assert.deepEqual(compute.calls, []);
        }
      } finally {
        ro.release();
      }
    },
  );

  it("RunDir.create() refuses a new run dir there, and an existing one, naming why", { skip }, () => {
    const ro = readOnlyDir()!;
    try {
      const existing = new RunDir(join(ro.dir, "existing"));
      existing.create("--run-dir");
      ro.seal();
      assert.throws(
        () => new RunDir(join(ro.dir, "new")).create("--run-dir"),
        (err: Error) => {
          assert.equal(err.name, "BadInputError");
          assert.match(err.message, /^Cannot create --run-dir ".*new": E(ROFS|ACCES).*; pick a writable directory$/);
          return true;
        },
      );
      assert.throws(() => existing.create("--run-dir"), /^BadInputError: Cannot write in --run-dir ".*existing": /);
    } finally {
      ro.release();
    }
  });
});

describe("a metric difference beyond the doubles", () => {
  it("fails the run as an evaluation does (exit 3), naming the measures and their values, in one line", async () => {
    const dir = recordedRun();
    const r = await decide(dir, 1.7e308, -1.7e308);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(
      r.stderr.trimEnd().split("\n").at(-1),
      'outerloop: error: Cannot decide: the difference of measures "candidate" (-1.7e+308) and "baseline" ' +
        '(1.7e+308) overflows to -Infinity; check what the benchmark reports as "score"',
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  });
});
