// test.sh: alone — it stops qmaster, which every other live GE test's jobs need
/**
 * The whole cycle on a real Grid Engine cell: `measure --compute sge` parks
 * (75) behind a wake held on exactly the look's jobs (`-hold_jid`), the wake
 * runs `resume` inside GE and decides; an eval that exits 99 and one that
 * exits 100 fail the run (not rescheduled, not held in Eqw); a qmaster
 * outage while the jobs run reads no job as dead, and the run decides after.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { cli, geCommand, geIt, geJobEnded, geTestbed, measureSge, waitFor } from "../helpers/ge_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

/** Prints its score after `sleep` seconds, then exits `code`. */
const bench = (score: string, sleep = "0", code = "0") => ({
  "bench.sh": `sleep ${sleep}\nprintf '{"score": %s}\\n' "$(cat score)"\nexit ${code}\n`,
  score,
});

function contract(dir: string): string {
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
    }),
  );
  return file;
}

/** The run's jobs GE still lists (by the run tag in their names). */
async function queuedOf(tag: string): Promise<string[]> {
  const xml = await geCommand(["qstat", "-u", "root", "-xml"]);
  return [...xml.matchAll(/<JB_name>([^<]*)<\/JB_name>/g)].map((m) => m[1]!).filter((n) => n.includes(tag));
}

geIt(
  "measure parks with exit 75, the wake held on the look's jobs resumes inside GE and decides",
  180_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = await makeRepo([bench("10", "2"), bench("12", "2")]);
    const dir = tempDir("ge-cycle-");
    const runDir = join(dir, "gecyc");
    const started = Date.now();
    const r = await measureSge(binary, repo, shas, runDir, contract(dir));
    assert.equal(r.exitCode, 75, r.stderr);
    const parked = JSON.parse(r.stdout);
    assert.equal(parked.pending.length, 2);
    assert.equal(parked.dependency, `afterany:${parked.pending.join(":")}`);
    assert.equal(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).compute, "sge");
    const held = await geCommand(["qstat", "-j", parked.wake_job]).catch(() => "");
    if (held !== "") assert.match(held, new RegExp(`jid_predecessor_list[^:]*:\\s+${parked.pending.join(",")}`));
    await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 150_000, 500);
    process.stderr.write(`live-ge cycle: measure -> decision.json in ${Date.now() - started} ms\n`);
    const decision = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    assert.equal(decision.verdict, "accept");
    assert.deepEqual(decision.values, { baseline: 10, candidate: 12 });
    assert.equal(await geJobEnded(parked.wake_job), "COMPLETED");
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /verdict: accept/);
    for (const d of readdirSync(runDir).filter((f) => f.startsWith("eval-"))) {
      assert.equal(readFileSync(join(runDir, d, EVAL_FILES.exitCode), "utf8"), "0");
    }
  },
);

geIt(
  "an eval exiting 100 and one exiting 99 fail the run once: recorded as 100 and 99, no job rescheduled or held",
  180_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = await makeRepo([bench("10", "1", "100"), bench("12", "1", "99")]);
    const dir = tempDir("ge-exit-");
    const tag = `geex${Date.now().toString(36).slice(-5)}`;
    const runDir = join(dir, tag);
    const r = await measureSge(binary, repo, shas, runDir, contract(dir));
    assert.equal(r.exitCode, 75, r.stderr);
    const parked = JSON.parse(r.stdout);
    assert.equal(await geJobEnded(parked.wake_job, 150_000), "COMPLETED");
    const codes = readdirSync(runDir).filter((f) => f.startsWith("eval-")).map((d) =>
      readFileSync(join(runDir, d, EVAL_FILES.exitCode), "utf8")
    ).sort();
    assert.deepEqual(codes, ["100", "99"]);
    for (const id of parked.pending) {
      const acct = await geCommand(["qacct", "-j", id]);
      assert.equal(acct.match(/^jobnumber/gm)?.length, 1, `job ${id} ran more than once:\n${acct}`);
      assert.match(acct, /^failed\s+0\b/m);
      assert.match(acct, /^exit_status\s+1\b/m);
    }
    assert.equal(existsSync(join(runDir, "decision.json")), false);
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /exited with code (99|100)\b/);
    assert.deepEqual(await queuedOf(tag), []);
    const resumed = await cli(binary, "resume", runDir);
    assert.equal(resumed.exitCode, 3, resumed.stderr);
  },
);

geIt("a qmaster outage while the jobs run reads no job as dead; the run decides after", 240_000, async () => {
  const binary = await ensureBinary();
  const { repo, shas } = await makeRepo([bench("10", "25"), bench("9", "25")]);
  const dir = tempDir("ge-outage-");
  const runDir = join(dir, "geout");
  const r = await measureSge(binary, repo, shas, runDir, contract(dir));
  assert.equal(r.exitCode, 75, r.stderr);
  const runJson = readFileSync(join(runDir, "run.json"), "utf8");
  await geTestbed("stop", "qmaster");
  let during: SpawnResult;
  try {
    during = await cli(binary, "resume", runDir);
  } finally {
    await geTestbed("start", "qmaster");
  }
  assert.ok(during.exitCode === 4 || during.exitCode === 75, `exit ${during.exitCode}: ${during.stderr}`);
  assert.equal(readFileSync(join(runDir, "run.json"), "utf8"), runJson);
  assert.equal(existsSync(join(runDir, "failure.json")), false, "a job was read as dead during the outage");
  await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 180_000, 1000);
  assert.equal(JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).verdict, "reject");
});
