/**
 * Runs on a real Grid Engine cell beyond one pair: a round of three
 * candidates (its screen as ONE GE array, tasks `A_0…` outside GE, each
 * task's log `task-T.out` from 0 as on Slurm), `cancel RUN_DIR` leaving
 * nothing of the run queued, and a pass that died between the qsub and the
 * marker recovered by name without a second job.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { cli, geCommand, geIt, measureSge, namesQueued, uniqueTag, waitFor } from "../helpers/ge_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

const sleepy = (score: string, sleep: string) => ({
  "bench.sh": `sleep ${sleep}\nprintf '{"score": %s}\\n' "$(cat score)"\n`,
  score,
});

function contract(dir: string, more: Record<string, unknown> = {}): string {
  const file = join(dir, "contract.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "toy",
      command: "sh bench.sh",
      metric: "score",
      direction: "maximize",
      seed_env: "SEED",
      eval_minutes: 2,
      ...more,
    }),
  );
  return file;
}

geIt(
  "a round of 3 candidates on GE: the screen as one array, the leader confirmed through park and wake",
  300_000,
  async () => {
    const binary = await ensureBinary();
    const bench = (effect: number) => ({
      "bench.sh": `awk -v s="$SEED" 'BEGIN { printf "{\\"score\\": %.4f}\\n", 10 + ${effect} + ((s % 5) - 2) / 10 }'\n`,
    });
    const { repo, shas } = makeRepo([bench(0), bench(2), bench(0), bench(-2)]);
    const dir = tempDir("ge-round-");
    const tag = uniqueTag("gerd");
    const runDir = join(dir, tag);
    const file = contract(dir, { min_effect: 1, repeats: 3, max_repeats: 6 });
    const r = await measureSge(binary, repo, shas, runDir, file);
    assert.equal(r.exitCode, 75, r.stderr);
    assert.match(r.stderr, /dispatched 8 job\(s\) as one job array \d+, tasks 0-7: /);
    await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 240_000, 1000);
    const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    assert.equal(d.verdict, "accept");
    assert.equal(d.round.winner.arm, 1);
    // the screen's array (8 tasks, all of which its first look needs) left task-T.out for T from 0, as on Slurm
    const screen = readdirSync(runDir).filter((f) => f.startsWith("array-")).map((a) => join(runDir, a)).find((a) =>
      readFileSync(join(a, "manifest"), "utf8").trim().split("\n").filter((l) => !l.startsWith("#")).length === 8
    );
    assert.ok(screen !== undefined, "no array of 8 tasks");
    const logs = readdirSync(screen).filter((f) => f.startsWith("task-")).sort();
    assert.deepEqual(logs, [0, 1, 2, 3, 4, 5, 6, 7].map((t) => `task-${t}.out`).sort());
    // nothing of a finished run stays queued: the wake that decided ends by itself (a running wake is never
    // cancelled), every other is gone
    await waitFor("nothing of the run queued", () => namesQueued(tag), (n) => n.length === 0, 60_000, 500);
  },
);

geIt("cancel RUN_DIR takes every queued or running job of the run, the wake too", 120_000, async () => {
  const binary = await ensureBinary();
  const { repo, shas } = await makeRepo([sleepy("10", "0"), sleepy("12", "300")]);
  const dir = tempDir("ge-cancel-");
  const tag = uniqueTag("gecn");
  const runDir = join(dir, tag);
  const r = await measureSge(binary, repo, shas, runDir, contract(dir));
  assert.equal(r.exitCode, 75, r.stderr);
  assert.ok((await namesQueued(tag)).length >= 1);
  const c = await cli(binary, "cancel", runDir);
  assert.equal(c.exitCode, 0, c.stderr);
  await waitFor("nothing of the run queued", () => namesQueued(tag), (n) => n.length === 0, 60_000, 500);
  const resumed = await cli(binary, "resume", runDir);
  assert.equal(resumed.exitCode, 3, resumed.stderr);
  assert.equal(existsSync(join(runDir, "decision.json")), false);
});

geIt(
  "a pass that died between qsub and the marker: the next pass finds the job by name, submits no second one",
  180_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = await makeRepo([sleepy("10", "15"), sleepy("12", "15")]);
    const dir = tempDir("ge-crash-");
    const tag = uniqueTag("gecr");
    const runDir = join(dir, tag);
    const r = await measureSge(binary, repo, shas, runDir, contract(dir));
    assert.equal(r.exitCode, 75, r.stderr);
    const parked = JSON.parse(r.stdout);
    // what a pass that died right after the qsubs leaves: jobs queued, no marker, no wake
    await geCommand(["qdel", parked.wake_job]);
    rmSync(join(runDir, "wake.json"));
    for (const d of readdirSync(runDir).filter((f) => f.startsWith("eval-"))) {
      rmSync(join(runDir, d, EVAL_FILES.submitted));
    }
    const again = await cli(binary, "resume", runDir, "--json");
    assert.equal(again.exitCode, 75, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).pending.sort(), [...parked.pending].sort());
    assert.doesNotMatch(again.stderr, /submitted eval-/);
    await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 150_000, 1000);
    assert.equal(JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).verdict, "accept");
    // qacct lags the queue (a job it has no record of yet is "not found"): wait for both measures' records
    const records = async () => {
      try {
        return await geCommand(["qacct", "-j", `eval-${tag}-*`]);
      } catch {
        return "";
      }
    };
    const count = (acct: string) => acct.match(/^jobnumber/gm)?.length ?? 0;
    const acct = await waitFor("qacct's records of the eval jobs", records, (a) => count(a) >= 2, 60_000, 1000);
    assert.equal(count(acct), 2, "one job per measure:\n" + acct);
  },
);
