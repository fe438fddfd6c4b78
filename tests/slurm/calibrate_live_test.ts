/**
 * `calibrate --wait` on the real testbed, through the compiled binary: the
 * A/A run parks behind a real wake job, and the command waits through the
 * wake's pass until the run is calibrated (exit 0), as `measure --wait`
 * waits for a verdict.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { TESTBED_LANE } from "../helpers/measure_argv.ts";
import { liveIt } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

/** A benchmark whose runs differ by per-run noise around a seed-dependent level. */
const NOISY = {
  "bench.sh": `n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')\n` +
    `awk -v s="$SEED" -v n="$n" 'BEGIN { printf "{\\"t\\": %.6f}\\n", 100 + s % 10 + (n % 1000) / 250 }'\n`,
};

liveIt("calibrate --wait waits through the park and the wake until calibrated, and exits 0", 240_000, async () => {
  const { repo } = makeRepo([NOISY]);
  const dir = tempDir("live-calibrate-");
  const contract = join(dir, "c.json");
  writeFileSync(
    contract,
    JSON.stringify({
      name: "noisy",
      command: "sh bench.sh",
      metric: "t",
      direction: "maximize",
      seed_env: "SEED",
      eval_minutes: 2,
    }),
  );
  const runDir = join(dir, "runs", "aa");
  const argv = [await ensureBinary(), "calibrate", "--repo", repo, "--base", "main", "--contract", contract]
    .concat(["--run-dir", runDir, "--run-tag", `aa-${Date.now().toString(36)}`, "--pairs", "2"])
    .concat(["--account", TESTBED_LANE.account, "--partition", TESTBED_LANE.partition, "--compute", "slurm"]);
  const r = await spawn({ argv: [...argv, "--wait", "--poll", "1", "--json"], timeoutMs: 200_000, output: "separate" });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stderr, /dispatched 4 job\(s\) as one job array \d+, tasks 0-3: /);
  assert.match(r.stderr, /parked on job\(s\) \d+ behind wake job \d+; waiting for the calibration/);
  const out = JSON.parse(r.stdout);
  assert.equal(out.status, "calibrated");
  assert.equal(out.n, 2);
  assert.ok(out.sd > 0, "per-run noise gives a spread");
  // the answer on disk is the one printed, and resume reads it back without a pass
  assert.equal(JSON.parse(readFileSync(join(runDir, "calibration.json"), "utf8")).n, 2);
  const again = await spawn({ argv: [argv[0]!, "resume", runDir, "--json"], timeoutMs: 60_000, output: "separate" });
  assert.equal(again.exitCode, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout), out);
});
