import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { arrayIndexSpec } from "../../src/compute/array.ts";
import { withCluster } from "../../src/compute/cluster.ts";
import { toArgv } from "../../src/compute/job_spec.ts";
import { cli } from "../helpers/cli.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * `measure --dry-run` is what the first pass submits: the same arrays, pair
 * jobs, single jobs and wake, with the same sbatch argv, as a real first
 * pass of the same run dir — for a round (the screen's look, not every arm
 * on every pair), a repeated run with a sibling (one array) and same-job
 * pairs. Job ids differ (the scheduler hands them out), so a dependency's ids
 * are compared by count.
 */

const { repo, shas } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }, { "b.sh": "echo 3" }, {
  "b.sh": "echo 4",
}]);
const files = tempDir("dry-run-files-");

function contractFile(name: string, c: Record<string, unknown>): string {
  const file = join(files, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize", ...c }));
  return file;
}

/** Every sbatch a fake scheduler saw, in order: its argv with job ids in dependencies replaced by their count. */
function realSubmissions(compute: FakeCompute): string[][] {
  const jobs = compute.submitted.filter((_, i) => !compute.submittedIds[i]!.includes("_"));
  const arrays = [...compute.arrays];
  return compute.calls.filter((c) => c.startsWith("sbatch")).map((c) => {
    if (c === "sbatch") return normalized(toArgv(jobs.shift()!));
    const a = arrays.shift()!;
    return normalized(
      toArgv({ ...a.spec, extra: [...(a.spec.extra ?? []), `--array=${arrayIndexSpec(a.tasks, a.throttle)}`] }),
    );
  });
}

function normalized(argv: readonly string[]): string[] {
  // each alternative of the wake's dependency (`afterany:…?afternotok:…`) by its kind and count of ids
  return argv.map((a) =>
    a.startsWith("--dependency=")
      ? "--dependency=" +
        a.slice("--dependency=".length).split("?").map((alt) =>
          alt.replace(/^([a-z]+):([0-9_:]+)$/, (_, k, ids) => `${k}:<${ids.split(":").length} ids>`)
        ).join("?")
      : a
  );
}

const cases: [string, Record<string, unknown>, number][] = [
  ["a round of three candidates (the screen's look)", { repeats: 4, max_repeats: 8, min_effect: 0.1 }, 3],
  ["a repeated run with a sibling (one array)", {
    repeats: 3,
    max_repeats: 6,
    siblings: [{ name: "s", command: "sh b.sh", metric: "m", direction: "maximize" }],
  }, 1],
  ["same-job pairs", { repeats: 2, max_repeats: 4, pairing: "same-job" }, 1],
  ["one pair (the reference's jobs)", {}, 1],
];

describe("measure --dry-run", () => {
  for (const [what, contract, k] of cases) {
    it(`lists exactly what the first pass submits: ${what}`, async () => {
      const runDir = join(tempDir("dry-run-"), "run");
      const file = contractFile(what.replace(/\W+/g, "-"), contract);
      const candidates = shas.slice(1, 1 + k).flatMap((s) => ["--candidate", s]);
      const args = [
        "measure",
        "--repo",
        repo,
        "--base",
        shas[0]!,
        ...candidates,
        "--contract",
        file,
        "--run-dir",
        runDir,
      ];
      const dryCompute = new FakeCompute();
      const dry = await cli([...args, "--compute=slurm", "--dry-run", "--json"], { compute: dryCompute });
      assert.equal(dry.code, 0, dry.stderr);
      assert.equal(existsSync(runDir), false, "a dry run writes nothing in the run dir");
      assert.deepEqual(dryCompute.calls.filter((c) => c.startsWith("sbatch")), [], "and submits nothing");
      const plan = JSON.parse(dry.stdout);
      const compute = new FakeCompute();
      const real = await cli([...args, "--compute=slurm"], { compute });
      assert.equal(real.code, 75, real.stderr);
      assert.deepEqual(
        plan.submissions.map((s: { argv: string[] }) => normalized(s.argv)),
        realSubmissions(compute),
      );
      assert.equal(plan.submissions.at(-1).kind, "wake");
      if (k > 1) {
        // the screen's look: the baseline and every candidate on the screen's first pairs only
        assert.deepEqual(
          plan.measures.map((m: { name: string }) => m.name).filter((n: string) => n.startsWith("baseline")),
          [
            "baseline",
            "baseline#2",
          ],
        );
      }
    });
  }

  it("names the run's Slurm cluster (--clusters) in every sbatch it lists, as the Slurm backend runs them", async () => {
    const file = contractFile("cluster", { repeats: 2 });
    const args = (runDir: string) => [
      "measure",
      "--compute=slurm",
      "--repo",
      repo,
      "--base",
      shas[0]!,
      "--candidate",
      shas[1]!,
      "--contract",
      file,
      "--run-dir",
      runDir,
      "--seed",
      "7",
      "--dry-run",
      "--json",
    ];
    const runDir = join(tempDir("dry-run-cluster-"), "run");
    const plain = await cli(args(runDir), { compute: new FakeCompute() });
    const named = await cli([...args(runDir), "--clusters", "gpu2"], { compute: new FakeCompute() });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(named.code, 0, named.stderr);
    const argvs = (stdout: string) => JSON.parse(stdout).submissions.map((s: { argv: string[] }) => s.argv);
    assert.deepEqual(
      argvs(named.stdout),
      argvs(plain.stdout).map((a: string[]) => withCluster(a, "gpu2")),
    );
    assert.ok(argvs(named.stdout).every((a: string[]) => a.slice(0, 3).join(" ") === "sbatch -M gpu2"));
  });
});
