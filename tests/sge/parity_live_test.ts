/**
 * The hidden-differential parity: ONE contract measured on the local
 * backend, on Slurm and on Grid Engine gives the same run-dir layout (every
 * file name, the eval dirs' included) and the same verdict. Needs both live
 * testbeds: skipped (loudly) without them, failed when either is required
 * and missing. The scheduled backends also leave the wake's files, which a
 * local run (it never parks) has no use for: those are the only difference.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { geLive, waitFor } from "../helpers/ge_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { TESTBED_LANE } from "../helpers/measure_argv.ts";
import { live as slurmLive } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

/** Files only a run that parked has (its wake). */
const WAKE_ONLY = new Set(["wake.json", "wake.out"]);

function layout(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [`${relative(root, path)}/`, ...layout(root, path)] : [relative(root, path)];
  }).sort();
}

const NAME = "three backends, one contract: the same run-dir layout and the same verdict";
const why = [geLive, slurmLive].find((d) => d.kind !== "run") as { kind: "skip" | "fail"; why: string } | undefined;
if (why === undefined) it(NAME, { timeout: 300_000 }, parity);
else if (why.kind === "skip") it(NAME, { skip: why.why, timeout: 300_000 }, parity);
else {
  it(NAME, { timeout: 300_000 }, () => {
    throw new Error(why.why);
  });
}

async function parity(): Promise<void> {
  const binary = await ensureBinary();
  const bench = (score: string) => ({ "bench.sh": `printf '{"score": %s}\\n' "$(cat score)"\n`, score });
  const { repo, shas } = await makeRepo([bench("10"), bench("12")]);
  const dir = tempDir("parity-");
  const contract = join(dir, "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({
      name: "par",
      command: "sh bench.sh",
      metric: "score",
      direction: "maximize",
      seed_env: "SEED",
      eval_minutes: 2,
    }),
  );
  const lanes: Record<string, string[]> = {
    local: [],
    slurm: ["--account", TESTBED_LANE.account, "--partition", TESTBED_LANE.partition],
    sge: ["--account", TESTBED_LANE.account],
  };
  const runs: Record<string, string> = {};
  await Promise.all(
    Object.entries(lanes).map(async ([compute, lane]) => {
      // the same run dir name on each backend: the run tag (and so every job name) derives from it
      const runDir = join(dir, compute, "par");
      runs[compute] = runDir;
      const argv = [binary, "measure", "--compute", compute, ...lane, "--repo", repo, "--base", shas[0]!];
      argv.push("--candidate", shas[1]!, "--contract", contract, "--run-dir", runDir, "--seed", "3", "--json");
      const r = await spawn({ argv, timeoutMs: 180_000, output: "separate" });
      assert.ok(r.exitCode === 0 || r.exitCode === 75, `${compute}: exit ${r.exitCode}: ${r.stderr}`);
      await waitFor(`${compute}'s decision`, () => existsSync(join(runDir, "decision.json")), Boolean, 200_000, 500);
      // the wake writes decision.json, then ends: wait for its log's last line
      if (compute !== "local") {
        await waitFor(
          `${compute}'s wake log`,
          () => readFileSync(join(runDir, "wake.out"), "utf8"),
          (t) => /verdict:/.test(t),
          60_000,
          500,
        );
      }
    }),
  );
  const verdict = (c: string) => JSON.parse(readFileSync(join(runs[c]!, "decision.json"), "utf8")).verdict;
  assert.deepEqual([verdict("local"), verdict("slurm"), verdict("sge")], ["accept", "accept", "accept"]);
  const files = (c: string) => layout(runs[c]!).filter((f) => !f.endsWith(".lock") && !f.endsWith(".tmp"));
  assert.deepEqual(files("sge"), files("slurm"), "GE and Slurm leave the same files");
  assert.deepEqual(
    files("sge").filter((f) => !WAKE_ONLY.has(f)),
    files("local"),
    "GE and local: the same but the wake's",
  );
}
