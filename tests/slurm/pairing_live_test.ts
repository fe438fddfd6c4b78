// test.sh: alone — it stops slurmctld, which every other live test's jobs need
/**
 * Pair jobs on the real testbed (contract `pairing`): a `same-job` run of
 * repeats 3 / max_repeats 6 through the real park, wake and decide with one
 * job per pair; a `duet` run asking twice the CPUs and pinning each measure
 * to its half; a cancel of a running pair job; an sbatch that fails after
 * submitting a pair job; and a slurmctld outage while pair jobs run — each
 * ending right, without a duplicate job.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseContract } from "../../src/contract/contract.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import { pairSeed } from "../../src/stats/pair_seed.ts";
import { decideLook } from "../../src/verdict/decide.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { live, liveIt, slurmCommand, testbed, waitFor } from "../helpers/slurm_live.ts";
import { SlurmWrappers } from "../helpers/slurm_wrappers.ts";
import { tempDir } from "../helpers/temp.ts";

/** The candidate's score follows its seed: 12 + ((seed mod 7) − 3) / 2, against a baseline of 10. */
const candidateScore = (seed: number) => 12 + ((seed % 7) - 3) / 2;
/** A benchmark that sleeps `seconds`, then scores as above (`spread`) or 12 flat. */
const bench = (candidate: boolean, seconds: number, spread: boolean) => ({
  "bench.sh": `sleep ${seconds}\n` +
    (candidate && !spread
      ? `echo '{"score": 12}'\n`
      : candidate
      ? `awk -v s="$SEED" 'BEGIN { printf "{\\"score\\": %.4f}\\n", 12 + ((s % 7) - 3) / 2 }'\n`
      : `echo '{"score": 10}'\n`),
});

const TWO_LOOKS = { pairing: "same-job", repeats: 3, max_repeats: 6, min_effect: 0 };

/** A run seed whose first three pairs leave the verdict open and whose six pairs decide. */
function twoLookSeed(): number {
  const contract = parseContract({
    name: "pb",
    command: "sh bench.sh",
    metric: "score",
    direction: "maximize",
    seed_env: "SEED",
    ...TWO_LOOKS,
  }, "test");
  const valuesAt = (seed: number, n: number) => {
    const seeds = Array.from({ length: n }, (_, i) => pairSeed(seed, i + 1));
    return { baseline: seeds.map(() => 10), candidate: seeds.map(candidateScore) };
  };
  for (let seed = 1; seed < 10_000; seed++) {
    if (
      decideLook(contract, valuesAt(seed, 3)).next.kind === "more" &&
      decideLook(contract, valuesAt(seed, 6)).next.kind === "final"
    ) return seed;
  }
  throw new Error("no seed gives two looks");
}

/** A repo, a contract with `extra`, and a run dir for one live pairing run. */
function setup(extra: Record<string, unknown>, seconds = 1, spread = false) {
  const { repo, shas } = makeRepo([bench(false, seconds, spread), bench(true, seconds, spread)]);
  const dir = tempDir("live-pairing-");
  const contract = join(dir, "contract.json");
  const c = {
    name: "pb",
    command: "sh bench.sh",
    metric: "score",
    direction: "maximize",
    seed_env: "SEED",
    eval_minutes: 2,
    ...extra,
  };
  writeFileSync(contract, JSON.stringify(c));
  const tag = `p${Math.random().toString(36).slice(2, 8)}`;
  const runDir = join(dir, "runs", tag);
  return { repo, shas, contract, runDir, dir, tag };
}

/** sacct's rows (JobID|JobName|State|AllocCPUS|NodeList) of the jobs named like `prefix`, since an hour ago. */
async function jobsNamed(prefix: string): Promise<string[][]> {
  const out = await slurmCommand([
    "sacct",
    "-X",
    "-n",
    "-P",
    "-S",
    "now-1hours",
    "--format=JobID,JobName%80,State,AllocCPUS,NodeList",
  ]);
  return out.trim().split("\n").map((l) => l.split("|")).filter((f) => f[1]?.startsWith(prefix));
}

const provenance = (runDir: string, measure: string) => {
  const d = readdirSync(runDir).find((n) => n.startsWith(`eval-${measure}-`))!;
  return Object.fromEntries(
    readFileSync(join(runDir, d, "provenance"), "utf8").trim().split("\n").map((
      l,
    ) => [l.split("=")[0], l.slice(l.indexOf("=") + 1)]),
  );
};

liveIt("same-job, repeats 3 / max_repeats 6: one job per pair through park, wake and decide", 300_000, async () => {
  const binary = await ensureBinary();
  const s = setup(TWO_LOOKS, 1, true);
  const r = await spawn({
    argv: [binary, ...testbedMeasureArgv(s, "--seed", String(twoLookSeed()), "--json")],
    timeoutMs: 120_000,
    output: "separate",
  });
  assert.equal(r.exitCode, 75, r.stderr);
  const parked = JSON.parse(r.stdout);
  assert.equal(parked.pending.length, 1, "three pairs, one job each, as the three tasks of one array");
  await waitFor("decision.json", () => existsSync(join(s.runDir, "decision.json")), Boolean, 240_000, 500);
  const d = JSON.parse(readFileSync(join(s.runDir, "decision.json"), "utf8"));
  assert.equal(d.n, 6, "two looks");
  const pairJobs = readdirSync(s.runDir).filter((n) => /^pair[0-9]+-/.test(n));
  assert.equal(pairJobs.length, 6);
  const ids = new Set<string>();
  for (let i = 1; i <= 6; i++) {
    const suffix = i === 1 ? "" : `#${i}`;
    const base = provenance(s.runDir, `baseline${suffix}`);
    const cand = provenance(s.runDir, `candidate${suffix}`);
    assert.equal(base["job_id"], cand["job_id"], `pair ${i}: both in one job`);
    assert.equal(base["host"], cand["host"]);
    assert.equal(d.provenance[`candidate${suffix}`].job_id, cand["job_id"]);
    ids.add(base["job_id"]!);
  }
  assert.equal(ids.size, 6);
  // accounting lags the controller: await every pair job's row
  const accounted = await waitFor(
    "six pair jobs in sacct",
    async () => (await jobsNamed(`eval-${s.tag}-`)).filter((f) => ids.has(f[0]!)),
    (rows) => rows.length >= 6,
    60_000,
    500,
  );
  // the tasks of two arrays, one per look
  assert.ok(accounted.every((f) => new RegExp(`^eval-${s.tag}-array-[0-9a-f]{16}$`).test(f[1]!)), String(accounted));
  assert.equal(new Set(accounted.map((f) => f[0]!.split("_")[0])).size, 2, "one array per look");
  assert.equal((await jobsNamed(`eval-${s.tag}-baseline`)).length, 0, "no job of a measure of its own");
  const show = await spawn({ argv: [binary, "show", s.runDir], output: "separate" });
  assert.equal(show.exitCode, 0, show.stderr);
  assert.match(show.stdout, /where and when:/);
});

liveIt("duet: both measures at once in one job of twice the CPUs, each on its half", 240_000, async () => {
  const binary = await ensureBinary();
  const s = setup({ pairing: "duet", repeats: 2, max_repeats: 2, min_effect: 1 });
  const r = await spawn({
    argv: [binary, ...testbedMeasureArgv(s, "--json", "--wait", "--poll", "1")],
    timeoutMs: 200_000,
    output: "separate",
  });
  assert.equal(r.exitCode, 0, r.stderr);
  const d = JSON.parse(readFileSync(join(s.runDir, "decision.json"), "utf8"));
  assert.equal(d.verdict, "accept");
  const base = provenance(s.runDir, "baseline");
  const cand = provenance(s.runDir, "candidate");
  assert.equal(base["job_id"], cand["job_id"]);
  const rows = await waitFor(
    "the duet job in sacct",
    async () => (await jobsNamed(`eval-${s.tag}-array-`)).filter((f) => f[0] === base["job_id"]),
    (found) => found.length > 0,
    60_000,
    500,
  );
  assert.equal(rows[0]?.[3], "2", "twice eval_cpus");
  const slurmOut = readFileSync(
    join(s.runDir, readdirSync(s.runDir).find((n) => n.startsWith("pair1-"))!, "slurm.out"),
    "utf8",
  );
  if (/duet CPUs/.test(slurmOut)) assert.notEqual(base["cpus"], cand["cpus"], "pinned to disjoint halves");
  else assert.match(slurmOut, /unpinned/);
});

liveIt("cancel RUN_DIR stops a running pair job and the run reads cancelled", 180_000, async () => {
  const binary = await ensureBinary();
  const s = setup({ pairing: "same-job" }, 60);
  const r = await spawn({ argv: [binary, ...testbedMeasureArgv(s, "--json")], timeoutMs: 120_000, output: "separate" });
  assert.equal(r.exitCode, 75, r.stderr);
  const [jobId] = JSON.parse(r.stdout).pending as string[];
  await waitFor(
    "the pair job to run",
    async () => (await slurmCommand(["squeue", "-h", "-j", jobId!, "-o", "%T"])).trim(),
    (st) => st === "RUNNING",
    60_000,
    250,
  );
  const c = await spawn({ argv: [binary, "cancel", s.runDir, "--json"], timeoutMs: 120_000, output: "separate" });
  assert.equal(c.exitCode, 0, c.stderr);
  assert.ok(JSON.parse(c.stdout).jobs.includes(jobId), c.stdout);
  await waitFor(
    "the pair job to end cancelled",
    async () => (await slurmCommand(["sacct", "-X", "-n", "-P", "-j", jobId!, "--format=State"])).trim(),
    (st) => st.startsWith("CANCELLED"),
    60_000,
    250,
  );
  const show = await spawn({ argv: [binary, "show", s.runDir, "--json"], output: "separate" });
  assert.equal(JSON.parse(show.stdout).state, "cancelled");
});

liveIt(
  "an sbatch that fails after submitting a pair job: it is found by name, never submitted twice",
  180_000,
  async () => {
    const binary = await ensureBinary();
    const w = new SlurmWrappers();
    w.plan("sbatch", "fail-after", "empty-after");
    const s = setup({ pairing: "same-job", repeats: 2, max_repeats: 2, min_effect: 1 });
    const env = {
      PATH: `${w.dir}:/usr/bin:/bin`,
      HOME: s.dir,
      TMPDIR: s.dir,
      SLURM_CONF: live.kind === "run" ? live.conf : "",
    };
    const r = await spawn({ argv: [binary, ...testbedMeasureArgv(s)], env, timeoutMs: 120_000, output: "separate" });
    assert.equal(r.exitCode, 75, r.stderr);
    await waitFor("the decision", () => existsSync(join(s.runDir, "decision.json")), Boolean, 150_000, 500);
    assert.equal(JSON.parse(readFileSync(join(s.runDir, "decision.json"), "utf8")).verdict, "accept");
    // the look's two pair jobs went as one array, submitted once
    const arrays = [...w.submissions()].filter(([name]) => /-array-/.test(name));
    assert.equal(arrays.length, 1, "one array");
    for (const [name, ids] of arrays) assert.equal(ids.length, 1, `${name}: ${ids.join(", ")}`);
    assert.equal(readdirSync(s.runDir).filter((n) => /^pair[0-9]+-/.test(n)).length, 2, "two pair jobs");
  },
);

liveIt(
  "a slurmctld outage while pair jobs run: nothing fails, nothing doubles, the run decides after",
  300_000,
  async () => {
    const binary = await ensureBinary();
    // long enough that the pair jobs still run once slurmctld is down
    const s = setup({ pairing: "same-job", repeats: 2, max_repeats: 2, min_effect: 1 }, 25);
    const r = await spawn({
      argv: [binary, ...testbedMeasureArgv(s, "--json")],
      timeoutMs: 120_000,
      output: "separate",
    });
    assert.equal(r.exitCode, 75, r.stderr);
    const pending = JSON.parse(r.stdout).pending as string[];
    await testbed("stop", "slurmctld");
    let during;
    try {
      during = await spawn({ argv: [binary, "resume", s.runDir], timeoutMs: 120_000, output: "separate" });
    } finally {
      await testbed("start", "slurmctld");
    }
    assert.ok(
      [4, 75].includes(during.exitCode ?? -1),
      `resume during the outage exited ${during.exitCode}: ${during.stderr}`,
    );
    assert.equal(existsSync(join(s.runDir, "failure.json")), false, "an outage is not a dead job");
    await waitFor(
      "the decision",
      async () => {
        if (existsSync(join(s.runDir, "decision.json"))) return true;
        await spawn({ argv: [binary, "resume", s.runDir], timeoutMs: 120_000, output: "separate" });
        return existsSync(join(s.runDir, "decision.json"));
      },
      Boolean,
      200_000,
      2000,
    );
    assert.equal(JSON.parse(readFileSync(join(s.runDir, "decision.json"), "utf8")).verdict, "accept");
    const jobs = await waitFor(
      "the pair jobs in sacct",
      async () => await jobsNamed(`eval-${s.tag}-array-`),
      (rows) => rows.length >= 2,
      60_000,
      500,
    );
    assert.equal(jobs.length, 2, `one job per pair: ${jobs.map((f) => f.join("|")).join("; ")}`);
    assert.deepEqual(jobs.map((f) => f[0]).sort(), pending.flatMap((a) => [`${a}_0`, `${a}_1`]).sort());
  },
);
