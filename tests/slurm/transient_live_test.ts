/**
 * Transient scheduler failures on the real testbed, through wrapper scripts
 * first on PATH around the real commands: an sbatch that submits and then
 * fails ("Socket timed out", the Nextflow/Toil double-submit), one that fails
 * before submitting, one that submits and answers nothing — each makes
 * exactly one job; a refusal is never retried; and a squeue that answers 6 s
 * late (before or after reading the queue) never makes a pass report a
 * healthy eval failed.
 */
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { live, liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { SlurmWrappers } from "../helpers/slurm_wrappers.ts";

const TAG = `lt${Date.now().toString(36)}`;

function envFor(w: SlurmWrappers, home: string): Record<string, string> {
  return { PATH: `${w.dir}:/usr/bin:/bin`, HOME: home, SLURM_CONF: live.kind === "run" ? live.conf : "" };
}

/** This user's jobs named `name` in accounting (any state), by id. */
async function accounted(name: string): Promise<string[]> {
  const out = await slurmCommand(["sacct", "--name", name, "-S", "now-1hour", "-X", "-n", "-P", "-o", "JobID"]);
  return out.split("\n").map((l) => l.trim()).filter(Boolean);
}

liveIt("an sbatch that fails after, before, or silently around submitting makes exactly one job", 180_000, async () => {
  const binary = await ensureBinary();
  const home = tempDir("live-transient-");
  for (const fault of ["fail-after", "fail", "empty-after"]) {
    const w = new SlurmWrappers();
    w.plan("sbatch", fault);
    const name = `${TAG}-${fault}`;
    const r = await spawn({
      argv: [binary, "submit", "--compute", "slurm", "--job-name", name, "--account", "acct_a", "--time", "1"]
        .concat(["--mem", "100M", "--command", "sleep 2"]),
      env: envFor(w, home),
      timeoutMs: 120_000,
      output: "separate",
    });
    assert.equal(r.exitCode, 0, `${fault}: ${r.stderr}`);
    const id = r.stdout.trim();
    assert.match(id, /^\d+$/);
    const made = w.submissions().get(name) ?? [];
    assert.deepEqual(made, [id], `${fault}: the real sbatch made ${made.join(", ")}`);
    assert.deepEqual(await waitFor(`${name} in sacct`, () => accounted(name), (ids) => ids.length > 0, 15_000), [id]);
    if (fault !== "fail") assert.match(r.stderr, new RegExp(`job ${id} named ${name} was submitted: using it`));
  }
});

liveIt("a refused submission is not retried", 60_000, async () => {
  const w = new SlurmWrappers();
  const r = await spawn({
    argv: [await ensureBinary(), "submit", "--compute", "slurm", "--job-name", `${TAG}-refused`]
      .concat(["--account", "no_such_account", "--command", "true"]),
    env: envFor(w, tempDir("live-refused-")),
    timeoutMs: 60_000,
    output: "separate",
  });
  assert.equal(r.exitCode, 4);
  assert.match(r.stderr, /Invalid account or account\/partition combination specified/);
  assert.equal(w.calls().filter((c) => c.cmd === "sbatch").length, 1);
});

/** A repo whose benchmark takes `seconds`, a contract, and a run dir, for the binary's measure. */
function benchRun(seconds: number) {
  const work = tempDir("live-slow-");
  const bench = (score: string) => ({ "bench.sh": `sleep ${seconds}\nprintf '{"score": ${score}}\\n'\n` });
  const { repo, shas } = makeRepo([bench("10"), bench("12")], join(work, "repo"));
  const contract = join(work, "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 2 }),
  );
  const runDir = join(work, "runs", `${TAG}-${Math.random().toString(36).slice(2, 8)}`);
  const args = ["--compute", "slurm", "--account", "acct_a", "--partition", "cpu", "--repo", repo]
    .concat(["--base", shas[0]!, "--candidate", shas[1]!, "--contract", contract, "--run-dir", runDir]);
  return { work, runDir, args };
}

liveIt(
  "measure through an sbatch that fails after submitting: one job per eval, and the run decides",
  180_000,
  async () => {
    const binary = await ensureBinary();
    const w = new SlurmWrappers();
    w.plan("sbatch", "fail-after", "pass", "empty-after");
    const { work, runDir, args } = benchRun(1);
    const r = await spawn({ argv: [binary, "measure", ...args], env: envFor(w, work), timeoutMs: 120_000 });
    assert.equal(r.exitCode, 75, r.stderr);
    await waitFor("the decision", () => existsSync(join(runDir, "decision.json")), Boolean, 120_000, 500);
    assert.equal(JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).verdict, "accept");
    const evals = [...w.submissions()].filter(([name]) => name.startsWith("eval-"));
    assert.equal(evals.length, 2);
    for (const [name, ids] of evals) assert.equal(ids.length, 1, `${name}: ${ids.join(", ")}`);
  },
);

async function slowListingPass(action: "slow-before" | "slow-after"): Promise<SpawnResult> {
  const binary = await ensureBinary();
  const w = new SlurmWrappers();
  const { work, runDir, args } = benchRun(4);
  const env = envFor(w, work);
  const r = await spawn({ argv: [binary, "measure", ...args], env, timeoutMs: 120_000 });
  assert.equal(r.exitCode, 75, r.stderr);
  // both evals running: their benchmark ends within the 6 s the listing takes
  await waitFor(
    "both evals to have started",
    () => readdirSync(runDir).filter((d) => d.startsWith("eval-") && existsSync(join(runDir, d, "started"))),
    (d) => d.length === 2,
    60_000,
    100,
  );
  w.plan("squeue", action);
  const resumed = await spawn({ argv: [binary, "resume", runDir, "--json"], env, timeoutMs: 120_000 });
  assert.ok([0, 75].includes(resumed.exitCode ?? -1), `${action}: exit ${resumed.exitCode}: ${resumed.stderr}`);
  assert.ok(w.calls().some((c) => c.cmd === "squeue" && c.action === action), "the slow squeue was used");
  await waitFor("the decision", () => existsSync(join(runDir, "decision.json")), Boolean, 120_000, 500);
  assert.equal(JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).verdict, "accept");
  return resumed;
}

liveIt("a squeue that takes 6 s to answer, while the evals finish, never fails a healthy eval", 240_000, async () => {
  const before = await slowListingPass("slow-before");
  const after = await slowListingPass("slow-after");
  process.stderr.write(
    `live-slurm slow squeue: resume exited ${before.exitCode} (6 s before reading) and ${after.exitCode} (6 s stale)\n`,
  );
});
