/**
 * Fail fast on the real testbed, through the binary as a loop drives it
 * (`measure --wait`): a candidate that crashes while its look's baseline is
 * still running gets its `crashed` verdict (exit 12) at once, and the
 * look's other jobs are cancelled — CANCELLED in sacct, never COMPLETED,
 * recorded as outerloop's own (`stopped`), read as `cancelled` by `show`;
 * with `--smoke`, a candidate that crashes every time costs one eval job and
 * the look is never sent. Small on purpose: the testbed is shared.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { failureBench as bench, failureContract, type Json, oneObject } from "../helpers/failure_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { assertOutput } from "../helpers/output_schema.ts";
import { live, liveIt, observeState, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const tags: string[] = [];
after(async () => {
  if (live.kind !== "run" || tags.length === 0) return;
  const listed = await slurmCommand(["squeue", "-h", "-o", "%j"]).catch(() => "");
  for (const name of new Set(listed.split("\n").filter((n) => tags.some((t) => n.includes(`-${t}-`))))) {
    await slurmCommand(["scancel", "-n", name]).catch(() => "");
  }
});

function newTag(prefix: string): string {
  const tag = `${prefix}${Math.random().toString(36).slice(2, 6)}`;
  tags.push(tag);
  return tag;
}

async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 200_000, output: "separate" });
}

/** sacct's allocations (`-X`) of run `tag`'s eval jobs and tasks: id and end state. */
async function evalRows(tag: string): Promise<{ id: string; state: string }[]> {
  const out = await slurmCommand(["sacct", "-X", "-n", "-P", "-S", "now-3hours", "--format=JobID,JobName%100,State"]);
  return out.split("\n").map((l) => l.split("|")).filter((f) => f.length >= 3 && f[1]!.startsWith(`eval-${tag}-`))
    .map(([id, , state]) => ({ id: id!, state: observeState(state!) }));
}

liveIt("a crash decides at once and cancels what is left of its look", 240_000, async () => {
  // the baseline takes 60 s a measure; the candidate crashes after 1 s
  const { repo, shas } = makeRepo([bench(10, "ok", 0, 60), bench(12, "crash", 0, 1)]);
  const tag = newTag("ff");
  const runDir = join(tempDir("live-fail-fast-"), tag);
  const file = failureContract({ repeats: 3, max_repeats: 3, eval_minutes: 3 });
  const started = Date.now();
  const r = await cli(
    ...testbedMeasureArgv({ repo, shas, contract: file, runDir }),
    "--run-tag",
    tag,
    "--seed",
    "3",
    "--wait",
    "--poll",
    "2",
    "--json",
  );
  const took = (Date.now() - started) / 1000;
  assert.equal(r.exitCode, 12, r.stderr);
  const j = assertOutput("measure", r.stdout, "measure --wait of a crash");
  assert.equal(j.verdict, "crashed");
  assert.ok(took < 50, `the verdict came in ${took} s, before the baseline's 60 s measures could end`);
  const crashes = JSON.parse(readFileSync(join(runDir, "crashes.json"), "utf8"));
  const stopped = crashes.stopped.map((s: Json) => s.measure);
  for (const m of ["baseline", "baseline#2", "baseline#3"]) assert.ok(stopped.includes(m), `${m} stopped: ${stopped}`);
  // every baseline task ends CANCELLED, never COMPLETED: nothing of the look ran on for nothing
  const stoppedJobs = new Set(crashes.stopped.flatMap((s: Json) => (s.job_id === null ? [] : [s.job_id])));
  const rows = await waitFor(
    "sacct to show the stopped tasks ended",
    () => evalRows(tag),
    (rs) =>
      [...stoppedJobs].every((id) => rs.some((x) => x.id === id && x.state !== "PENDING" && x.state !== "RUNNING")),
    60_000,
    1000,
  );
  for (const id of stoppedJobs) {
    assert.match(rows.find((x) => x.id === id)!.state, /^CANCELLED/, `${id}: ${JSON.stringify(rows)}`);
  }
  const shown = oneObject(await cli("show", runDir, "--json"));
  for (const m of shown.measures.filter((x: Json) => stopped.includes(x.name))) assert.equal(m.state, "cancelled");
  assert.equal((await cli("resume", runDir)).exitCode, 12, "resume answers the verdict, sending nothing");
});

liveIt(
  "a parked run's wake starts on a candidate's crash, not after its look: nothing polls, the wake decides",
  240_000,
  async () => {
    // no `wait`: the wake depends on the look ending OR (Slurm's `?`) a candidate job failing (afternotok)
    const { repo, shas } = makeRepo([bench(10, "ok", 0, 60), bench(12, "crash", 0, 1)]);
    const tag = newTag("fw");
    const runDir = join(tempDir("live-fail-fast-wake-"), tag);
    const file = failureContract({ repeats: 2, max_repeats: 2, eval_minutes: 3, pairing: "separate" });
    const started = Date.now();
    const parked = await cli(...testbedMeasureArgv({ repo, shas, contract: file, runDir }), "--run-tag", tag, "--json");
    assert.equal(parked.exitCode, 75, parked.stderr);
    const wake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
    assert.match(wake.dependency, /^afterany:[0-9]+\?afternotok:[0-9]+_[0-9]+\?afternotok:[0-9]+_[0-9]+$/);
    await waitFor("the wake to decide", async () => existsSync(join(runDir, "decision.json")), Boolean, 50_000, 500);
    const took = (Date.now() - started) / 1000;
    assert.ok(took < 50, `the wake decided in ${took} s, before the baseline's 60 s measures could end`);
    assert.equal(JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).verdict, "crashed");
    const stopped = JSON.parse(readFileSync(join(runDir, "crashes.json"), "utf8")).stopped.map((x: Json) => x.measure);
    assert.ok(stopped.includes("baseline") && stopped.includes("baseline#2"), `the baseline stopped: ${stopped}`);
  },
);

liveIt(
  "--smoke: a candidate that crashes every time costs one eval job, and the look is never sent",
  180_000,
  async () => {
    const { repo, shas } = makeRepo([bench(10), bench(12, "crash", 0, 1)]);
    const tag = newTag("fs");
    const runDir = join(tempDir("live-smoke-"), tag);
    const file = failureContract({ repeats: 3, max_repeats: 3 });
    const r = await cli(
      ...testbedMeasureArgv({ repo, shas, contract: file, runDir }),
      "--run-tag",
      tag,
      "--smoke",
      "--wait",
      "--poll",
      "2",
      "--json",
    );
    assert.equal(r.exitCode, 12, r.stderr);
    assert.equal(assertOutput("measure", r.stdout).verdict, "crashed");
    // sacct knows a job only a moment after it: wait for the one, then there is no other
    const rows = await waitFor(
      "sacct to show the smoke's job",
      () => evalRows(tag),
      (rs) => rs.length > 0,
      30_000,
      1000,
    );
    assert.equal(rows.length, 1, `one eval job, the candidate's: ${JSON.stringify(rows)}`);
    const met = JSON.parse(readFileSync(join(runDir, "crashes.json"), "utf8")).crashes.map((c: Json) => c.measure);
    assert.deepEqual(met, ["candidate"]);
  },
);
