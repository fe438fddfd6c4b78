/**
 * Resource use of short jobs on the real testbed: a job shorter than one
 * accounting sample has a TotalCPU and no MaxRSS in sacct, and one of a few
 * seconds has both on its batch step (the testbed samples every second, and
 * a job of one second can end before its first sample on a loaded machine).
 * `usage()` and `show` must give exactly what sacct prints, a blank only
 * where sacct has one.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { parseCpuTime, parseMemory } from "../../src/compute/usage.ts";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const tag = Date.now().toString(36);

/** sacct's own line of the job and of its batch step: [TotalCPU, MaxRSS] each. */
async function sacctOf(id: string): Promise<{ job: string[]; batch: string[] }> {
  const rows = (await slurmCommand(["sacct", "-j", id, "--parsable2", "--noheader", "-o", "JobID,TotalCPU,MaxRSS"]))
    .trim().split("\n").map((l) => l.split("|"));
  process.stderr.write(`live sacct of job ${id}: ${JSON.stringify(rows)}\n`);
  return { job: rows.find((r) => r[0] === id)!.slice(1), batch: rows.find((r) => r[0] === `${id}.batch`)!.slice(1) };
}

liveIt("usage() of short jobs gives sacct's TotalCPU and MaxRSS, even with no sample taken", 120_000, async () => {
  const compute = new SlurmCompute();
  const submit = (name: string, command: string) =>
    compute.submit({ jobName: `${name}-${tag}`, account: "acct_a", partition: "cpu", timeMinutes: 2, command });
  const quick = await submit("usage-quick", "true");
  const second = await submit("usage-second", "sleep 3");
  const since = new Date(Date.now() - 600_000);
  const usages = await waitFor(
    "both jobs' final figures",
    () => compute.usage([quick, second], since),
    (u) => u.size === 2,
    90_000,
    500,
  );
  for (const id of [quick, second]) {
    const u = usages.get(id)!;
    const { job, batch } = await sacctOf(id);
    process.stderr.write(`live usage of job ${id}: ${JSON.stringify(u)}\n`);
    assert.equal(u.state, "COMPLETED");
    assert.ok(parseCpuTime(job[0]!)! > 0, "sacct measured some CPU");
    assert.equal(u.totalCpuS, parseCpuTime(job[0]!), "TotalCPU as sacct prints it, not a blank");
    assert.equal(u.maxRssBytes, parseMemory(batch[1]!), "MaxRSS as the batch step carries it (or its blank)");
    if (u.elapsedS! > 0) assert.equal(u.cpuEfficiency, Math.min(1, u.totalCpuS! / u.elapsedS!));
  }
  assert.ok(usages.get(second)!.maxRssBytes! > 0, "a job of a few seconds is sampled: its batch step has a MaxRSS");
});

liveIt("show gives a sub-second eval's TotalCPU and MaxRSS as sacct has them", 180_000, async () => {
  // no sleep: the eval ends before the first accounting sample, so sacct has its TotalCPU and no MaxRSS
  const bench = { "bench.sh": `printf '{"score": 10}\\n'\n` };
  const { repo, shas } = makeRepo([bench, { ...bench, "x": "1" }]);
  const contract = join(tempDir("live-short-contract-"), "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 2 }),
  );
  const runDir = join(tempDir("live-short-"), "climb", "r1");
  const cli = async (...args: string[]): Promise<SpawnResult> =>
    await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 120_000, output: "separate" });
  const m = await cli(...testbedMeasureArgv({ repo, shas, contract, runDir }, "--run-tag", `short-${tag}`, "--wait"));
  assert.equal(m.exitCode, 10, m.stderr);
  type Shown = { name: string; usage: Record<string, number | string | null> | null };
  const measures = await waitFor(
    "both jobs' figures in show",
    async () => JSON.parse((await cli("show", runDir, "--json")).stdout).measures as Shown[],
    (ms) => ms.every((x) => x.usage !== null),
    60_000,
    500,
  );
  for (const { usage: u } of measures) {
    const { job, batch } = await sacctOf(String(u!["job_id"]));
    assert.ok(parseCpuTime(job[0]!)! > 0, "sacct measured some CPU");
    assert.equal(u!["total_cpu_s"], parseCpuTime(job[0]!));
    assert.equal(u!["max_rss_bytes"], parseMemory(batch[1]!));
    if (Number(u!["elapsed_s"]) > 0) assert.notEqual(u!["cpu_efficiency"], null, JSON.stringify(u));
  }
  const text = (await cli("show", runDir)).stdout;
  process.stderr.write(`live show of a short run:\n${text}`);
  assert.match(text, /^baseline\s+\d+\s+\ds\s+2m00s\s+.*\s+2 GiB\s+1/m);
});
