/**
 * `cancel RUN_DIR` of a run whose look is a half-run job array, on the real
 * testbed: with `--array-throttle 3`, four fast baselines and four slow
 * candidates go out as one array of eight; once some tasks are done, some
 * running and some still pending, the cancel takes the array whole (one id,
 * one scancel): nothing of the run is left queued, the running tasks end
 * CANCELLED, the done ones stay COMPLETED, and `show` reads the run cancelled
 * with every measure done or cancelled.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const bench = (seconds: number, score: number) => ({ "bench.sh": `sleep ${seconds}\necho '{"score": ${score}}'\n` });

/** The run's array tasks and their states, from squeue (live) and sacct (ended): id → state. */
async function taskStates(arrayId: string): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const ended = await slurmCommand(["sacct", "-X", "-n", "-P", "-j", arrayId, "--format=JobID,State"]);
  for (const line of ended.trim().split("\n").filter(Boolean)) {
    const [id, state] = line.split("|");
    if (/^\d+_\d+$/.test(id!)) states.set(id!, state!);
  }
  const live = await slurmCommand(["squeue", "-r", "-h", "-j", arrayId, "-o", "%i|%T"]);
  for (const line of live.trim().split("\n").filter(Boolean)) {
    const [id, state] = line.split("|");
    states.set(id!, state!);
  }
  return states;
}

liveIt(
  "cancel RUN_DIR of a half-run array takes it whole: done tasks kept, running and pending ones gone",
  240_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = makeRepo([bench(1, 10), bench(90, 12)]);
    const dir = tempDir("live-array-cancel-");
    const contract = join(dir, "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({
        name: "ac",
        command: "sh bench.sh",
        metric: "score",
        direction: "maximize",
        seed_env: "SEED",
        eval_minutes: 3,
        repeats: 4,
      }),
    );
    const runDir = join(dir, "runs", `ac${Date.now().toString(36).slice(-5)}`);
    const r = await spawn({
      argv: [binary, ...testbedMeasureArgv({ repo, shas, contract, runDir }, "--array-throttle", "3", "--json")],
      timeoutMs: 120_000,
      output: "separate",
    });
    assert.equal(r.exitCode, 75, r.stderr);
    const parked = JSON.parse(r.stdout);
    assert.equal(parked.pending.length, 1, "the look's eight measures: one array");
    const arrayId = parked.pending[0] as string;

    const doneEvals = () =>
      readdirSync(runDir).filter((n) => n.startsWith("eval-") && existsSync(join(runDir, n, "exit-code"))).length;
    // some done (the fast baselines), some running (slow candidates), some pending behind the throttle
    const half = await waitFor(
      "a half-run array",
      async () => ({ done: doneEvals(), states: [...(await taskStates(arrayId)).values()] }),
      (h) => h.done >= 2 && h.states.includes("RUNNING") && h.states.includes("PENDING"),
      120_000,
      500,
    );
    assert.ok(half.done < 8);

    const c = await spawn({ argv: [binary, "cancel", runDir, "--json"], timeoutMs: 120_000, output: "separate" });
    assert.equal(c.exitCode, 0, c.stderr);
    const cancelled = JSON.parse(c.stdout);
    assert.ok(cancelled.jobs.includes(arrayId), `the array is cancelled by its id: ${c.stdout}`);
    assert.ok(cancelled.jobs.includes(parked.wake_job), "and the wake");

    const after = await waitFor(
      "the array's tasks to leave the queue",
      async () => ({
        live: (await slurmCommand(["squeue", "-r", "-h", "-j", `${arrayId},${parked.wake_job}`, "-o", "%i"])).trim(),
        states: await taskStates(arrayId),
      }),
      // accounting lags the controller: await the rows of the tasks done before the cancel too
      (a) => a.live === "" && [...a.states.values()].filter((s) => s === "COMPLETED").length >= half.done,
      60_000,
      500,
    );
    const ended = [...after.states.values()];
    assert.ok(ended.every((s) => s === "COMPLETED" || s.startsWith("CANCELLED")), JSON.stringify([...after.states]));
    assert.ok(ended.filter((s) => s === "COMPLETED").length >= half.done, "the tasks done before the cancel stay done");
    assert.ok(ended.some((s) => s.startsWith("CANCELLED")), "the running ones were cancelled");

    const show = JSON.parse((await spawn({ argv: [binary, "show", runDir, "--json"], output: "separate" })).stdout);
    assert.equal(show.state, "cancelled");
    for (const m of show.measures) assert.ok(["done", "cancelled"].includes(m.state), JSON.stringify(m));
    assert.ok(show.measures.filter((m: { state: string }) => m.state === "done").length >= 2);
    const resumed = await spawn({ argv: [binary, "resume", runDir], output: "separate" });
    assert.equal(resumed.exitCode, 3, "a cancelled run stays cancelled");
  },
);
