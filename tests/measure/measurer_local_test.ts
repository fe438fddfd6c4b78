import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LocalCompute } from "../../src/compute/local.ts";
import { pinSha } from "../../src/dispatch/pin.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { planMeasures } from "../../src/measure/plan.ts";
import { git, makeRepo } from "../helpers/git_repo.ts";

/** Baseline prints its metric on stdout; the candidate writes $OUTERLOOP_RESULT. */
const BASE = {
  "bench.sh": `echo "seed=$SEED tree=$(cat version)" >&2\nprintf '{"score": %s}\\n' "$(cat version)"\n`,
  version: "10",
};
const CAND = {
  "bench.sh":
    `echo "running candidate"\nprintf '{"score": %s, "seed": "%s"}' "$(cat version)" "$SEED" > "$OUTERLOOP_RESULT"\n`,
  version: "12.5",
};

describe("the measurer on LocalCompute with real git repositories", () => {
  it("measures both commits in fresh checkouts, through both result channels", { timeout: 60_000 }, async () => {
    const { repo, shas } = await makeRepo([BASE, CAND]);
    const [base, cand] = shas as [string, string];
    await pinSha(repo, base);
    await pinSha(repo, cand);
    // the user's working tree is dirty: jobs must not see it
    writeFileSync(join(repo, "version"), "999");
    const runDir = join(tempDir("runs-"), "run1");
    // the jobs' own TMPDIR, where their checkouts go: other processes' checkouts in the shared one are not ours
    const jobTmp = tempDir("job-tmp-");
    const env = { PATH: "/usr/bin:/bin", HOME: tmpdir(), TMPDIR: jobTmp };
    const measurer = testMeasurer(runDir, new LocalCompute({ env }), {
      repoRoot: repo,
      lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: false },
      evalMinutes: 1,
      runTag: "demo",
    });
    const plan = planMeasures({
      command: "sh bench.sh",
      metric: "score",
      baseSha: base,
      candidateSha: cand,
      seedEnv: "SEED",
      seed: 7,
      siblings: [],
      gpus: 0,
    });
    const values = await measurer.results(plan);
    assert.deepEqual(values, { baseline: 10, candidate: 12.5 });
    const baseDir = measurer.evalDir(plan[0]!);
    assert.match(readFileSync(join(baseDir, EVAL_FILES.output), "utf8"), /seed=7 tree=10/);
    assert.equal(readFileSync(join(baseDir, EVAL_FILES.exitCode), "utf8"), "0");
    // the candidate saw the paired seed
    assert.equal(JSON.parse(readFileSync(join(measurer.evalDir(plan[1]!), EVAL_FILES.result), "utf8")).seed, "7");
    // a second pass reads from disk and runs nothing again
    const before = readFileSync(join(baseDir, EVAL_FILES.submitted), "utf8");
    assert.deepEqual(await measurer.results(plan), values);
    assert.equal(readFileSync(join(baseDir, EVAL_FILES.submitted), "utf8"), before);
    // the checkouts were removed and the user's tree untouched
    assert.equal(readFileSync(join(repo, "version"), "utf8"), "999");
    assert.deepEqual(readdirSync(jobTmp).filter((d) => d.startsWith("outerloop-eval.")), []);
    assert.match(await git(repo, "for-each-ref", "refs/dispatch/"), new RegExp(cand));
  });
});

describe("a same-job pair job on LocalCompute with a real git repository", () => {
  it(
    "runs both measures in one job, each in its own checkout, and both see that job's id",
    { timeout: 60_000 },
    async () => {
      const bench = (score: string) => ({
        "bench.sh": `printf '{"score": ${score}, "job": "%s"}' "$OUTERLOOP_JOB_ID" > "$OUTERLOOP_RESULT"\n`,
      });
      const { repo, shas } = await makeRepo([bench("10"), bench("12")]);
      const [base, cand] = shas as [string, string];
      await pinSha(repo, base);
      await pinSha(repo, cand);
      const runDir = join(tempDir("runs-"), "run1");
      const compute = new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: tmpdir() } });
      const measurer = testMeasurer(runDir, compute, {
        repoRoot: repo,
        lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: false },
        evalMinutes: 1,
        runTag: "pair",
        pairing: "same-job",
      });
      const plan = planMeasures({ command: "sh bench.sh", metric: "score", baseSha: base, candidateSha: cand });
      assert.deepEqual(await measurer.results(plan), { baseline: 10, candidate: 12 });
      const jobOf = (i: number) =>
        JSON.parse(readFileSync(join(measurer.evalDir(plan[i]!), EVAL_FILES.result), "utf8")).job as string;
      assert.match(jobOf(0), /^[0-9]+$/);
      assert.equal(jobOf(0), jobOf(1), "one job for the pair");
      assert.equal(jobOf(0), measurer.marker(plan[0]!));
      const provenance = readFileSync(join(measurer.evalDir(plan[1]!), EVAL_FILES.provenance), "utf8");
      assert.match(provenance, new RegExp(`^job_id=${jobOf(0)}$`, "m"));
    },
  );
});
