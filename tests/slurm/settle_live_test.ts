/**
 * What a live test leaves in the queue is cancelled when it ends (liveIt):
 * here a job known only by its log in the test's dir, as a wake is (`--wrap`,
 * no script, submitted from wherever the CLI ran). On 24.11 slurmstepd makes
 * a missing log's directories, so such a job starting after the test's dirs
 * were removed brought them back (the suite's leftover check, CI part 3).
 * The two tests run in order: the first leaves the job, the second looks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { liveIt, slurmCommand } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

let leftJob = "";

liveIt("(setup) a test that ends with a held job whose only path in its dirs is its log", 60_000, async () => {
  const log = join(tempDir("live-settle-"), "never-made", "wake-%j.out");
  const out = await slurmCommand(["sbatch", "--parsable", "--begin=now+600", `--output=${log}`, "--wrap", "true"]);
  leftJob = out.trim().split(";")[0]!;
  assert.match(leftJob, /^\d+$/);
});

liveIt("the job it left is cancelled when it ends, before anything could write there", 60_000, async () => {
  assert.notEqual(leftJob, "", "the setup test ran first");
  assert.equal((await slurmCommand(["squeue", "-h", "-j", leftJob])).trim(), "", "gone from the queue");
  const state = await slurmCommand(["sacct", "-n", "-P", "-X", "-j", leftJob, "-o", "State"]);
  assert.match(state.trim(), /^CANCELLED/);
});
