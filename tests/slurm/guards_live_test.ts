/**
 * Guards from the same eval on the real testbed, through the compiled binary:
 * a benchmark prints `{"t": …, "size": …, "mem": …}` in its one result line,
 * the contract climbs `t` and guards `size` (1%) and `mem` (2, absolute).
 * As `measure` (one candidate) and as a round (two candidates): guards that
 * hold leave the verdict to `t`, their estimates in decision.json and in
 * `show --json`; a guard that regresses rejects the candidate (drops it, in a
 * round), the reasons naming it. And sacct shows no job of the guards' own:
 * each run's eval tasks, counted by job name, are one per measure and as many
 * as the same run's without guards.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { jobEnded, liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

/** Every run dir this file measured in, cancelled at the end whatever happened (a decided run has nothing left). */
const runDirs: string[] = [];
let binaryPath: string | null = null;
after(async () => {
  if (binaryPath === null) return;
  for (const dir of runDirs) {
    await spawn({ argv: [binaryPath, "cancel", dir], timeoutMs: 60_000, output: "separate" }).catch(() => {});
  }
});

/**
 * One commit's benchmark: `t`, `size` and `mem` from one awk, each moved by a
 * few thousandths by the seed and by `k` (the commit's own offset), so the
 * pairs' differences have a spread of their own — small beside the guards'
 * tolerances: a guard whose interval still reaches past its tolerance holds
 * an accept back to the next look, as a sibling does, and the rounds with and
 * without guards would then differ in their pairs.
 */
const bench = (t: number, size: number, mem: number, k: number) => ({
  "bench.sh": `awk -v s="$SEED" 'BEGIN { j = ((s * 7 + ${k}) % 5 - 2) / 1000; ` +
    `printf "{\\"t\\": %.4f, \\"size\\": %.3f, \\"mem\\": %.3f}\\n", ${t} + j, ${size} + j, ${mem} + j }'\n`,
});

const GUARDS = [
  { metric: "size", direction: "minimize", tolerance: "1%" },
  { metric: "mem", direction: "minimize", tolerance: 2 },
];

/** The contract, with the two guards or without; `t` climbed, 5% to clear. */
function contract(dir: string, withGuards: boolean, repeats: number, maxRepeats: number): string {
  const file = join(dir, `contract-${withGuards ? "guards" : "plain"}-${repeats}-${maxRepeats}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: "gd",
      command: "sh bench.sh",
      metric: "t",
      direction: "minimize",
      seed_env: "SEED",
      eval_minutes: 2,
      min_effect: "5%",
      repeats,
      max_repeats: maxRepeats,
      ...(withGuards ? { guards: GUARDS } : {}),
    }),
  );
  return file;
}

/** `measure` of `base` against each of `candidates` on the testbed's lane; parks (75) and says so in --json. */
async function measure(repo: string, base: string, candidates: readonly string[], file: string, runDir: string) {
  runDirs.push(runDir);
  const argv = [
    binaryPath!,
    ...testbedMeasureArgv({ repo, shas: [base, ...candidates], contract: file, runDir }),
    "--seed",
    "3",
    "--json",
  ];
  const r = await spawn({ argv, timeoutMs: 120_000, output: "separate" });
  assert.equal(r.exitCode, 75, r.stderr);
}

/** The cli's result for `args`. */
async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [binaryPath!, ...args], timeoutMs: 60_000, output: "separate" });
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** Waits for the run's decision and for the wake that wrote it to end; decision.json. */
async function decided(runDir: string): Promise<Json> {
  await waitFor(`${runDir}/decision.json`, () => existsSync(join(runDir, "decision.json")), Boolean, 270_000, 500);
  const wake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
  assert.equal(await jobEnded(wake.job_id), "COMPLETED");
  return JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
}

/**
 * The run's eval jobs as sacct lists them, by job name (`eval-<tag>-…`),
 * once sacct knows every one its eval dirs recorded — accounting lags the
 * controller — and asserted to be exactly those: one job or task per measure,
 * none of a guard. Their count.
 */
async function evalJobsInSacct(runDir: string): Promise<number> {
  const tag = runDir.split("/").at(-1)!;
  const evals = readdirSync(runDir).filter((n) => n.startsWith("eval-"));
  const markers = evals.map((n) => readFileSync(join(runDir, n, "submitted"), "utf8").trim());
  const rows = await waitFor(
    `every eval job of ${tag} in sacct`,
    async () =>
      (await slurmCommand(["sacct", "-X", "-n", "-P", "-S", "now-1hours", "--format=JobID,JobName%80"]))
        .split("\n").map((l) => l.split("|")).filter((f) => f[1]?.startsWith(`eval-${tag}-`)),
    (rows) => rows.length >= markers.length,
    60_000,
    500,
  );
  assert.deepEqual(rows.map((f) => f[0]).sort(), [...markers].sort(), `${tag}: one job or task per measure`);
  assert.deepEqual(rows.filter((f) => /guard/.test(f[1]!)), [], `${tag}: no job of a guard's`);
  return rows.length;
}

/** The benchmark's measures of a decision: its values without the guards' (which no job ran). */
function benchmarkMeasures(d: Json): number {
  return Object.keys(d.values).filter((k) => !k.startsWith("guard-")).length;
}

/** `show RUN_DIR --json`, parsed. */
async function shown(runDir: string): Promise<Json> {
  const s = await cli("show", runDir, "--json");
  assert.equal(s.exitCode, 0, s.stderr);
  return JSON.parse(s.stdout);
}

/** A guard's estimate is a paired interval over `n` pairs in the direction's favour, with its standing. */
function assertGuard(e: Json, n: number, standing: string, mean: (m: number) => boolean): void {
  assert.equal(e.n, n, JSON.stringify(e));
  assert.equal(e.standing, standing, JSON.stringify(e));
  assert.ok(e.lower <= e.mean && e.mean <= e.upper, JSON.stringify(e));
  assert.ok(mean(e.mean), JSON.stringify(e));
}

liveIt(
  "measure with two guards: held, the verdict is t's; one regressed, rejected for it; as many eval jobs as without guards",
  300_000,
  async () => {
    binaryPath = await ensureBinary();
    // base; 20% faster, guards unchanged; 20% faster but 10% larger
    const { repo, shas } = makeRepo([bench(1, 100, 50, 0), bench(0.8, 100, 50, 1), bench(0.8, 110, 50, 2)]);
    const [base, good, fat] = shas as [string, string, string];
    const dir = tempDir("live-guards-");
    const id = Math.random().toString(36).slice(2, 6);
    const run = { held: join(dir, `gh${id}`), regressed: join(dir, `gr${id}`), plain: join(dir, `gp${id}`) };
    const guarded = contract(dir, true, 2, 2);
    await measure(repo, base, [good], guarded, run.held);
    await measure(repo, base, [fat], guarded, run.regressed);
    await measure(repo, base, [good], contract(dir, false, 2, 2), run.plain);

    const held = await decided(run.held);
    assert.equal(held.verdict, "accept", held.reasons.join("\n"));
    assert.match(held.reasons[0], /^The candidate improved on the baseline, above min_effect 5%/);
    assert.ok(held.reasons.some((r: string) => /^Guard "size" held within its tolerance 1%/.test(r)));
    assert.ok(held.reasons.some((r: string) => /^Guard "mem" held within its tolerance 2/.test(r)));
    assertGuard(held.guards.size, 2, "held", (m) => Math.abs(m) < 1);
    assertGuard(held.guards.mem, 2, "held", (m) => Math.abs(m) < 1);
    assert.deepEqual((await shown(run.held)).guards, held.guards, "show --json gives decision.json's guards");

    const regressed = await decided(run.regressed);
    assert.equal(regressed.verdict, "reject", regressed.reasons.join("\n"));
    assert.match(regressed.reasons[0], /improved on the benchmark .* but is rejected: guard "size" regressed/);
    assert.ok(regressed.reasons.some((r: string) => /^Guard "size" regressed beyond its tolerance 1%/.test(r)));
    assertGuard(regressed.guards.size, 2, "regressed", (m) => m < -9 && m > -11);
    assertGuard(regressed.guards.mem, 2, "held", (m) => Math.abs(m) < 1);
    const s = await shown(run.regressed);
    assert.deepEqual(s.guards, regressed.guards);
    assert.equal(s.verdict, "reject");
    const resumed = await cli("resume", run.regressed);
    assert.equal(resumed.exitCode, 10, "a reject exits 10");

    const plain = await decided(run.plain);
    assert.equal(plain.verdict, "accept");
    assert.deepEqual(plain.guards ?? {}, {});
    // two pairs, four measures, four eval tasks: the guards' six values per pair came from the benchmark's own jobs
    const counts = {
      held: await evalJobsInSacct(run.held),
      regressed: await evalJobsInSacct(run.regressed),
      plain: await evalJobsInSacct(run.plain),
    };
    assert.deepEqual(counts, { held: 4, regressed: 4, plain: 4 });
    assert.equal(benchmarkMeasures(held), 4);
    assert.equal(Object.keys(held.values).length, 4 + 8, "each of the four measures gave both guards' values");
    process.stderr.write(`live-slurm guards, measure: eval jobs in sacct ${JSON.stringify(counts)}\n`);
  },
);

liveIt(
  "a round with two guards: held, the same eval jobs as without guards; a regressing one drops its candidate",
  300_000,
  async () => {
    binaryPath = await ensureBinary();
    // base; 20% faster; 15% faster; 15% faster but 10% larger
    const { repo, shas } = makeRepo([
      bench(1, 100, 50, 0),
      bench(0.8, 100, 50, 1),
      bench(0.85, 100, 50, 2),
      bench(0.85, 110, 50, 3),
    ]);
    const [base, good, ok, fat] = shas as [string, string, string, string];
    const dir = tempDir("live-guards-round-");
    const id = Math.random().toString(36).slice(2, 6);
    const run = { held: join(dir, `rh${id}`), plain: join(dir, `rp${id}`), regressed: join(dir, `rr${id}`) };
    const guarded = contract(dir, true, 2, 4);
    await measure(repo, base, [good, ok], guarded, run.held);
    await measure(repo, base, [good, ok], contract(dir, false, 2, 4), run.plain);
    await measure(repo, base, [good, fat], guarded, run.regressed);

    const held = await decided(run.held);
    assert.equal(held.verdict, "accept", held.reasons.join("\n"));
    assert.equal(held.round.winner.arm, 1);
    const winner = held.round.candidates.find((c: Json) => c.arm === 1);
    assertGuard(winner.guards.size, winner.estimate.n, "held", (m) => Math.abs(m) < 1);
    assertGuard(winner.guards.mem, winner.estimate.n, "held", (m) => Math.abs(m) < 1);
    const heldShown = await shown(run.held);
    assert.deepEqual(heldShown.round.candidates.find((c: Json) => c.arm === 1).guards, winner.guards);

    const plain = await decided(run.plain);
    assert.equal(plain.verdict, "accept");
    const course = (d: Json) => d.round.candidates.map((c: Json) => [c.arm, c.standing, c.because, c.pairs]);
    assert.deepEqual(course(held), course(plain), "guards that hold change nothing of the round's course");

    const regressed = await decided(run.regressed);
    assert.equal(regressed.verdict, "accept", regressed.reasons.join("\n"));
    assert.equal(regressed.round.winner.arm, 1);
    const dropped = regressed.round.candidates.find((c: Json) => c.arm === 2);
    assert.equal(dropped.standing, "dropped");
    assert.equal(dropped.verdict, "reject");
    assert.match(dropped.reason, /guard "size" worse than tolerance/);
    assert.ok(
      regressed.reasons.some((r: string) => /dropped: candidate 2 \(.*guard "size" worse than tolerance\)/.test(r)),
    );
    // no job of the dropped candidate after its drop, none of a guard's, one task per measure
    const evals = readdirSync(run.regressed).filter((n) => /^eval-candidate-2(#[0-9]+)?-/.test(n));
    assert.equal(evals.length, dropped.pairs);

    const counts = {
      held: await evalJobsInSacct(run.held),
      plain: await evalJobsInSacct(run.plain),
      regressed: await evalJobsInSacct(run.regressed),
    };
    assert.equal(counts.held, counts.plain, "as many eval jobs with guards as without");
    assert.equal(counts.held, benchmarkMeasures(held));
    assert.equal(counts.regressed, benchmarkMeasures(regressed));
    process.stderr.write(`live-slurm guards, round: eval jobs in sacct ${JSON.stringify(counts)}\n`);
  },
);
