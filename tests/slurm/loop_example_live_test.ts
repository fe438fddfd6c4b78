/**
 * The Python loop example (examples/loop/loop.py) on the real testbed, as
 * docs/loop.md tells a reader to run it on a cluster: three scripted
 * proposals (better, no change, a crash) each measured against the best
 * commit so far with `measure --wait` on Slurm, `repeats: 2`; results.tsv
 * keeps the first, discards the second, notes the crash, and its rows are
 * `outerloop runs --tsv`'s. Small on purpose: the testbed is shared.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { exampleRepo, EXAMPLES } from "../helpers/doc_sandbox.ts";
import { TESTBED_LANE } from "../helpers/measure_argv.ts";
import { live, liveIt } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const runDirs: string[] = [];
after(async () => {
  // whatever of the climb is still queued (a failed test), cancelled by its own run dirs only
  if (live.kind !== "run" || runDirs.length === 0) return;
  const binary = await ensureBinary();
  for (const dir of runDirs) await spawn({ argv: [binary, "cancel", dir], timeoutMs: 60_000, output: "separate" });
});

const rowsOf = (tsv: string) => tsv.trim().split("\n").map((line) => line.split("\t"));

liveIt("loop.py climbs three proposals on Slurm: keep, discard, crash, into results.tsv", 600_000, async () => {
  const binary = await ensureBinary();
  const work = tempDir("live-loop-example-");
  const repo = join(work, "proj");
  await exampleRepo(repo, 3);
  const contract = join(work, "bench.json");
  const example = JSON.parse(readFileSync(join(EXAMPLES, "bench.json"), "utf8"));
  writeFileSync(contract, JSON.stringify({ ...example, repeats: 2, eval_minutes: 2 }));
  const runs = join(work, "runs");
  runDirs.push(...[1, 2, 3].map((n) => join(runs, `r${n}`)));
  const env = {
    PATH: `${dirname(binary)}:/usr/bin:/bin`,
    HOME: work,
    LANG: "C.UTF-8",
    TMPDIR: process.env["TMPDIR"] ?? "/var/tmp",
    SLURM_CONF: process.env["SLURM_CONF"] ?? "",
  };
  const lane = ["--account", TESTBED_LANE.account, "--partition", TESTBED_LANE.partition];
  const r = await spawn({
    argv: ["python3", join(EXAMPLES, "loop.py"), repo, contract, runs, "--compute", "slurm", ...lane, "--poll", "2"],
    cwd: work,
    env,
    output: "separate",
    timeoutMs: 540_000,
  });
  assert.equal(r.exitCode, 0, `loop.py exited ${r.exitCode}:\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /^r1: keep: .*\nr2: discard: .*\nr3: crash: .*\n$/);

  const rows = rowsOf(readFileSync(join(work, "results.tsv"), "utf8"));
  assert.deepEqual(rows.map(([, , status, description]) => [status, description]), [
    ["status", "description"],
    ["keep", "baseline"],
    ["keep", "Cache the parsed input"],
    ["discard", "Rename the loop variable"],
    ["crash", "Switch to the streaming parser (eval command exited with code 1)"],
  ]);
  const own = rowsOf(
    (await spawn({ argv: [binary, "runs", runs, "--tsv"], env, output: "separate", timeoutMs: 60_000 })).stdout,
  );
  assert.deepEqual(own.map((o) => [o[0], o[2], o[3]]), rows.map((o) => [o[0], o[2], o[3]]));

  // every run was measured on Slurm and decided there
  const listing = await spawn({ argv: [binary, "runs", runs, "--json"], env, output: "separate", timeoutMs: 60_000 });
  const decided = JSON.parse(listing.stdout).runs.map((e: { state: string; verdict: string }) => [e.state, e.verdict]);
  assert.deepEqual(decided.map(([state]: string[]) => state), ["decided", "decided", "decided"]);
  for (const dir of runDirs) {
    assert.equal(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).compute, "slurm", dir);
  }
});
