/**
 * A wake whose run dir was removed while it waited (someone `rm -rf`ed the
 * run instead of `outerloop cancel`): its pass cannot run and the job fails,
 * writing nothing but what the scheduler writes. Slurm differs here: 22.05
 * fails the job before it starts (its log's directory is missing), 24.11's
 * slurmstepd makes the directory for the log, so the run dir comes back
 * holding that log alone, which names the missing run record.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { quoteCommand } from "../../src/compute/quote.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { slurmAtLeast } from "../helpers/slurm_version.ts";
import { tempDir } from "../helpers/temp.ts";

liveIt(
  "a wake whose run dir was removed fails, and brings back nothing but its log (24.11) or nothing (22.05)",
  120_000,
  async () => {
    const binary = await ensureBinary();
    const runDir = join(tempDir("live-removed-"), "runs", "r1");
    const log = join(runDir, "wake.out");
    // as the wake is sent (src/run/wake.ts): the pass's command wrapped, its log in the run dir
    const out = await slurmCommand([
      "sbatch",
      "--parsable",
      "--time=2",
      `--output=${log}`,
      "--open-mode=append",
      `--wrap=${quoteCommand([binary, "resume", "--wake", runDir])}`,
    ]);
    const job = out.trim().split(";")[0]!;
    const row = await waitFor(
      "the wake's end in sacct",
      async () => (await slurmCommand(["sacct", "-n", "-P", "-X", "-j", job, "-o", "State,ExitCode"])).trim(),
      (r) => /^(FAILED|COMPLETED|CANCELLED)/.test(r),
      90_000,
      500,
    );
    if (await slurmAtLeast(24, 11)) {
      assert.equal(row, "FAILED|2:0", "the pass could not run: exit 2, its own code");
      assert.deepEqual(readdirSync(runDir), ["wake.out"], "nothing but the log");
      assert.match(readFileSync(log, "utf8"), /No run record at .*run\.json/);
    } else {
      assert.match(row, /^FAILED\|0:53$/, "the job fails before it starts: no directory for its log");
      assert.equal(existsSync(runDir), false, "nothing is written");
    }
  },
);
