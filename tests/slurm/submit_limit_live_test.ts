// test.sh: alone — it fills acct_lim's MaxSubmitJobs, which array_live_test's limit test needs too
/**
 * A run that meets a site's submit limit on the real testbed: `acct_lim`
 * lets root hold at most 10 jobs (MaxSubmitJobs=10, enforced), and a look
 * of 12 pairs is 24 measures. The first pass sends what fits beside its
 * wake, says what waits, and parks (exit 75, not a failure); `show` says
 * what waits for room; the wakes send the rest as jobs end; the run decides.
 * Every measure went to the scheduler once, as a task of some array.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { measureArgv } from "../helpers/measure_argv.ts";
import { liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const bench = (candidate: boolean) => ({
  "bench.sh": candidate
    ? `awk -v s="$SEED" 'BEGIN { printf "{\\"score\\": %.4f}\\n", 12 + ((s % 7) - 3) / 2 }'\n`
    : `echo '{"score": 10}'\n`,
});

liveIt(
  "a look of 24 measures under MaxSubmitJobs=10: parks, says what waits, sends the rest later, decides",
  420_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = makeRepo([bench(false), bench(true)]);
    const dir = tempDir("live-limit-");
    const contract = join(dir, "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({
        name: "lim",
        command: "sh bench.sh",
        metric: "score",
        direction: "maximize",
        seed_env: "SEED",
        eval_minutes: 2,
        min_effect: 0,
        repeats: 12,
      }),
    );
    const runDir = join(dir, "runs", "lim");
    const tag = `lim${Date.now().toString(36).slice(-6)}`; // job names keep 10 characters of a run tag
    const argv = measureArgv(
      {
        compute: "slurm",
        lane: { account: "acct_lim", partition: "cpu" },
        repo,
        base: shas[0]!,
        candidate: shas[1]!,
        contract,
        runDir,
      },
      "--run-tag",
      tag,
      "--json",
    );
    const first = await spawn({ argv: [binary, ...argv], timeoutMs: 120_000, output: "separate" });
    assert.equal(first.exitCode, 75, `the run parks, it does not fail: ${first.stderr}`);
    assert.match(first.stderr, /(\d+) job\(s\) wait for room under the site's submit limit \([^)]*\)/);
    const waiting = Number(/(\d+) job\(s\) wait for room/.exec(first.stderr)![1]);
    assert.ok(waiting >= 15, `at most 9 of 24 fit beside the wake: ${waiting} wait`);

    const show = await spawn({ argv: [binary, "show", runDir], timeoutMs: 60_000, output: "separate" });
    assert.match(show.stdout, new RegExp(`waiting for room: ${waiting} job\\(s\\) not submitted yet`));
    const showJson = await spawn({ argv: [binary, "show", runDir, "--json"], timeoutMs: 60_000, output: "separate" });
    assert.equal(JSON.parse(showJson.stdout).waiting_for_room.waiting, waiting);

    const wait = await spawn({
      argv: [binary, "wait", runDir, "--json", "--timeout", "360"],
      timeoutMs: 400_000,
      output: "separate",
    });
    assert.equal(wait.exitCode, 0, wait.stderr);
    const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    assert.equal(d.verdict, "accept");
    assert.equal(d.n, 12);
    assert.equal(Object.keys(d.values).length, 24);

    // every measure once, as a task of an array of at most 9 (10 less the wake)
    const markers = readdirSync(runDir).filter((n) => n.startsWith("eval-")).map((e) =>
      readFileSync(join(runDir, e, "submitted"), "utf8").trim()
    );
    assert.equal(markers.length, 24);
    assert.equal(new Set(markers).size, 24, "no two measures share a task");
    assert.ok(markers.every((m) => /^\d+_\d+$/.test(m)), `every measure is an array task: ${markers}`);
    const rows = await waitFor(
      "every array task in sacct",
      async () =>
        (await slurmCommand(["sacct", "-n", "-P", "-X", "-S", "now-1hour", "-o", "JobID,JobName,State"]))
          .trim().split("\n").map((l) => l.split("|")).filter((r) => r[1]?.startsWith(`eval-${tag}-array-`)),
      (r) => r.length >= 24,
      60_000,
      1000,
    );
    assert.equal(rows.length, 24, `24 tasks, none submitted twice: ${rows.map((r) => r[0]).join(" ")}`);
    const perArray = new Map<string, number>();
    for (const [id] of rows) perArray.set(id!.split("_")[0]!, (perArray.get(id!.split("_")[0]!) ?? 0) + 1);
    assert.ok([...perArray.values()].every((n) => n <= 9), `arrays of at most 9: ${JSON.stringify([...perArray])}`);
    assert.ok(perArray.size >= 3, "the rest went out on later passes");
    assert.ok(rows.every((r) => r[2] === "COMPLETED"), JSON.stringify(rows));
  },
);
