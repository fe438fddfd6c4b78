/**
 * A round of three candidates through the real cycle on the testbed:
 * `repeats: 3, max_repeats: 6`; the screen measures every candidate beside
 * one baseline per pair, drops the two that cannot win at its first look (no
 * more of their jobs are submitted), and the leader is confirmed on fresh
 * pairs through the real park, wake and decide — one winner, exit 0.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { jobEnded, liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

/** A benchmark scoring 10 + `effect`, give or take a tenth by seed. */
const bench = (effect: number) => ({
  "bench.sh": `awk -v s="$SEED" 'BEGIN { printf "{\\"score\\": %.4f}\\n", 10 + ${effect} + ((s % 5) - 2) / 10 }'\n`,
});

liveIt(
  "a round of 3 candidates: two dropped by the screen, the leader confirmed through park and wake",
  300_000,
  async () => {
    const binary = await ensureBinary();
    // base, then the candidates: +2 (the winner), +0 (cannot clear min_effect 1), −2
    const { repo, shas } = makeRepo([bench(0), bench(2), bench(0), bench(-2)]);
    const dir = tempDir("live-round-");
    const contract = join(dir, "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({
        name: "rnd",
        command: "sh bench.sh",
        metric: "score",
        direction: "maximize",
        seed_env: "SEED",
        eval_minutes: 2,
        min_effect: 1,
        repeats: 3,
        max_repeats: 6,
      }),
    );
    const tag = `rd${Math.random().toString(36).slice(2, 6)}`;
    const runDir = join(dir, "runs", tag);
    const argv = [
      binary,
      ...testbedMeasureArgv({ repo, shas, contract, runDir }),
      "--seed",
      "3",
      "--json",
    ];
    const r = await spawn({ argv, timeoutMs: 120_000, output: "separate" });
    assert.equal(r.exitCode, 75, r.stderr);
    // the screen: two pairs of the baseline and three candidates, eight measures as the tasks of one array
    assert.equal(JSON.parse(r.stdout).pending.length, 1, "the screen as one array");
    assert.match(r.stderr, /dispatched 8 job\(s\) as one job array \d+, tasks 0-7: /);
    await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 240_000, 500);
    const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    assert.equal(d.verdict, "accept");
    assert.equal(d.round.winner.arm, 1);
    const dropped = d.round.candidates.filter((c: { standing: string }) => c.standing === "dropped");
    assert.deepEqual(dropped.map((c: { arm: number }) => c.arm), [2, 3]);
    assert.ok(dropped.some((c: { pairs: number }) => c.pairs === 2), "one dropped at the screen's first look");
    // no job of a dropped candidate after it was dropped: its eval dirs stop at its last pair
    const evals = readdirSync(runDir).filter((n) => n.startsWith("eval-"));
    for (const c of dropped) {
      const pairs = evals.filter((n) => new RegExp(`^eval-candidate-${c.arm}(#[0-9]+)?-`).test(n)).length;
      assert.equal(pairs, c.pairs, `candidate-${c.arm} has ${pairs} eval dirs, measured on ${c.pairs} pairs`);
    }
    assert.ok(evals.some((n) => /^eval-candidate#[0-9]+-/.test(n) && Number(/#([0-9]+)/.exec(n)![1]) > 2));
    const wake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
    assert.equal(await jobEnded(wake.job_id), "COMPLETED");
    // accounting lags the controller: await every eval task of the round in sacct before counting them
    const measured = Object.keys(d.values).length;
    const markers = evals.map((n) => readFileSync(join(runDir, n, "submitted"), "utf8").trim());
    assert.equal(markers.length, measured);
    const mine = await waitFor(
      "every eval task of the round in sacct",
      async () =>
        (await slurmCommand(["sacct", "-X", "-n", "-P", "-S", "now-1hours", "--format=JobID,JobName%80"]))
          .split("\n").map((l) => l.split("|")).filter((f) => f[1]?.startsWith(`eval-${tag}-`)),
      (rows) => rows.length >= measured,
      60_000,
      500,
    );
    // each task is one measure's: none ran twice, and none of a dropped candidate after its drop (its eval
    // dirs, counted above, are all it has)
    assert.deepEqual(mine.map((f) => f[0]).sort(), [...markers].sort(), "one task per measure");
    const show = await spawn({ argv: [binary, "show", runDir, "--json"], output: "separate" });
    assert.equal(show.exitCode, 0, show.stderr);
    const resumed = await spawn({ argv: [binary, "resume", runDir], output: "separate" });
    assert.equal(resumed.exitCode, 0, "a winner exits 0");
  },
);
