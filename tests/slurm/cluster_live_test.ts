/**
 * Slurm's multi-cluster flag through the binary on the real testbed (its
 * cluster is `testbed`, registered in slurmdbd): `--clusters testbed` is kept
 * in run.json and named (`-M testbed`) on every scheduler command of the run
 * — the measure's, the wake job's and `show`'s — and a run asked of several
 * clusters, or of one Slurm does not know, is refused with a clear line.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { which } from "../../src/runtime/which.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { failureBench as bench, failureContract, oneObject } from "../helpers/failure_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { live, liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const tags: string[] = [];
after(async () => {
  if (live.kind !== "run") return;
  for (const t of tags) await slurmCommand(["scancel", "-n", t]).catch(() => "");
});

/** Wrappers, first on PATH, that log every Slurm client call (argv, one line) to `log` and run the real one. */
function loggingPath(): { path: string; log: string } {
  const dir = tempDir("live-cluster-bin-");
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  for (const cmd of ["sbatch", "squeue", "sacct", "scancel", "scontrol"]) {
    const real = which(cmd, process.env["PATH"] ?? "", process.cwd());
    assert.ok(real, `${cmd} on PATH`);
    const script = join(dir, cmd);
    // each line: the job the call came from ("-" outside one), then the argv. The job is the calling
    // outerloop's SLURM_JOB_ID: outerloop gives a scheduler command no SLURM_* of its own
    const job = `$(tr '\\0' '\\n' < /proc/$PPID/environ | sed -n 's/^SLURM_JOB_ID=//p')`;
    writeFileSync(script, `#!/bin/sh\nj=${job}\necho "\${j:--} ${cmd} $*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(script, 0o755);
  }
  return { path: `${dir}:${process.env["PATH"]}`, log };
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<SpawnResult> {
  return await spawn({
    argv: [await ensureBinary(), ...args],
    env: { ...process.env, ...env } as Record<string, string>,
    timeoutMs: 200_000,
    output: "separate",
  });
}

function newRun() {
  const { repo, shas } = makeRepo([bench(10), bench(12)]);
  const tag = `cl${Math.random().toString(36).slice(2, 6)}`;
  tags.push(tag);
  const runDir = join(tempDir("live-cluster-"), tag);
  mkdirSync(join(runDir, ".."), { recursive: true });
  const contract = failureContract({ repeats: 2, max_repeats: 2 });
  return { argv: testbedMeasureArgv({ repo, shas, contract, runDir }), tag, runDir };
}

liveIt(
  "--clusters is kept in run.json and named on every scheduler command, the wake job's included",
  240_000,
  async () => {
    const { argv, tag, runDir } = newRun();
    const { path, log } = loggingPath();
    const env = { PATH: path };
    const parked = await cli([...argv, "--run-tag", tag, "--clusters", "testbed", "--json"], env);
    assert.equal(parked.exitCode, 75, parked.stderr);
    assert.equal(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).cluster, "testbed");
    // the wake decides (no `wait`: its own pass must run the scheduler commands)
    await waitFor("the wake to decide", async () => existsSync(join(runDir, "decision.json")), Boolean, 150_000, 500);
    const wake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).job_id;
    const shown = await cli(["show", runDir, "--json"], env);
    assert.equal(shown.exitCode, 0, shown.stderr);
    assert.equal(oneObject(shown).verdict, "accept");
    const calls = readFileSync(log, "utf8").split("\n").filter((l) => l !== "").map((l) => {
      const [job, ...argv] = l.split(" ");
      return { job: job!, argv };
    });
    const ours = calls.filter((c) => c.job === "-");
    assert.ok(ours.filter((c) => c.argv[0] === "sbatch").length >= 2, `evals and wake: ${JSON.stringify(calls)}`);
    assert.ok(
      calls.some((c) => c.job === wake),
      `the wake job ${wake} ran scheduler commands: ${JSON.stringify(calls)}`,
    );
    const without = calls.filter((c) => c.argv[1] !== "-M" || c.argv[2] !== "testbed");
    assert.deepEqual(without, [], "every call names the cluster");
  },
);

liveIt("a run of several clusters, or of a cluster Slurm does not know, is refused", 120_000, async () => {
  const { argv, tag, runDir } = newRun();
  const several = await cli([...argv, "--run-tag", tag], { SLURM_CLUSTERS: "testbed,other" });
  assert.equal(several.exitCode, 2, several.stderr);
  assert.match(several.stderr, /Invalid SLURM_CLUSTERS "testbed,other": outerloop works on one cluster/);
  const unknown = await cli([...argv, "--run-tag", tag, "--clusters", "nosuch"]);
  assert.equal(unknown.exitCode, 4, unknown.stderr);
  assert.match(unknown.stderr, /nosuch/);
  void runDir;
});
