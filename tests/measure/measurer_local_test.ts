import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
    const measurer = testMeasurer(runDir, new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: tmpdir() } }), {
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
    assert.deepEqual(
      readdirSync(tmpdir()).filter((d) =>
        d.startsWith("outerloop-eval.") && existsSync(join(tmpdir(), d, "tree", "bench.sh"))
      ),
      [],
    );
    assert.match(await git(repo, "for-each-ref", "refs/dispatch/"), new RegExp(cand));
  });
});
