/**
 * Paired repeats through the real cycle: a `repeats: 3, max_repeats: 6` run
 * whose first look cannot tell — measure parks on three pairs, the first wake
 * judges them, dispatches three more and parks again, the second wake
 * decides: two looks, two wakes, one decision.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseContract } from "../../src/contract/contract.ts";
import { decideLook } from "../../src/verdict/decide.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import { pairSeed } from "../../src/stats/pair_seed.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { jobEnded, liveIt, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";

/** The candidate's score follows its seed: 12 + ((seed mod 7) − 3) / 2 against a constant baseline of 10. */
const candidateScore = (seed: number) => 12 + ((seed % 7) - 3) / 2;
const bench = (candidate: boolean) => ({
  "bench.sh": candidate
    ? `awk -v s="$SEED" 'BEGIN { printf "{\\"score\\": %.4f}\\n", 12 + ((s % 7) - 3) / 2 }'\n`
    : `echo '{"score": 10}'\n`,
});

const CONTRACT = {
  name: "rep",
  command: "sh bench.sh",
  metric: "score",
  direction: "maximize",
  seed_env: "SEED",
  eval_minutes: 2,
  min_effect: 0,
  repeats: 3,
  max_repeats: 6,
};

/** A run seed whose first three pairs leave the verdict open and whose six pairs accept. */
function twoLookSeed(): number {
  const contract = parseContract(CONTRACT, "test");
  const valuesAt = (seed: number, n: number) => {
    const seeds = Array.from({ length: n }, (_, i) => pairSeed(seed, i + 1));
    return { baseline: seeds.map(() => 10), candidate: seeds.map(candidateScore) };
  };
  for (let seed = 1; seed < 10_000; seed++) {
    const first = decideLook(contract, valuesAt(seed, 3));
    if (first.next.kind !== "more") continue;
    if (decideLook(contract, valuesAt(seed, 6)).verdict === "accept") return seed;
  }
  throw new Error("no seed gives two looks");
}

liveIt("a repeats 3 / max_repeats 6 run: two looks, two wakes, one decision", 300_000, async () => {
  const binary = await ensureBinary();
  const { repo, shas } = makeRepo([bench(false), bench(true)]);
  const dir = tempDir("live-repeats-");
  const contractFile = join(dir, "contract.json");
  writeFileSync(contractFile, JSON.stringify(CONTRACT));
  const runDir = join(dir, "runs", "rep");
  const seed = twoLookSeed();
  const r = await spawn({
    argv: [
      binary,
      ...testbedMeasureArgv({ repo, shas, contract: contractFile, runDir }, "--seed", String(seed), "--json"),
    ],
    timeoutMs: 120_000,
    output: "separate",
  });
  assert.equal(r.exitCode, 75, r.stderr);
  const parked = JSON.parse(r.stdout);
  assert.equal(parked.pending.length, 1, "the first look's three pairs, dispatched at once as one array");
  const firstWake = parked.wake_job;

  await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 240_000, 500);
  const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  assert.equal(d.verdict, "accept");
  assert.equal(d.n, 6);
  assert.deepEqual(d.seeds, Array.from({ length: 6 }, (_, i) => pairSeed(seed, i + 1)));
  assert.equal(Object.keys(d.values).length, 12);
  assert.match(d.reasons[0], /look 2 of 2/);
  const secondWake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
  assert.notEqual(secondWake.job_id, firstWake, "the first wake parked the run again behind a second wake");
  assert.equal(secondWake.pending.length, 1, "the second look's three pairs: one array");
  await jobEnded(secondWake.job_id);
  const log = readFileSync(join(runDir, "wake.out"), "utf8");
  assert.match(log, /parked: waiting on job\(s\)/, "the first wake parked");
  assert.match(log, /verdict: accept/, "the second wake decided");
});
