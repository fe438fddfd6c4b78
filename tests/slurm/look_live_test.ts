/**
 * The measurer's look on the real testbed: what is nobody's code is sent
 * again and the look completes — a task of a look's array scancelled while
 * pending, and one while its eval runs; a crashed eval is reported in
 * `failed` while the others complete; a task outerloop cancelled itself is
 * reported neither failed nor sent again; and sacct's resource use of array
 * tasks and of a pair job's measures.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { pinSha } from "../../src/dispatch/pin.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { LookOptions, LookResults } from "../../src/measure/look_results.ts";
import type { Measure } from "../../src/measure/measure.ts";
import type { DispatchedMeasurer, MeasurerOptions } from "../../src/measure/measurer.ts";
import { planMeasures } from "../../src/measure/plan.ts";
import { measureUsage } from "../../src/plan/run_usage.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const compute = new SlurmCompute({ commandTimeoutMs: 30_000 });
/** Every job id the looks were given, cancelled at the end whatever happened. */
const seen = new Set<string>();
after(async () => {
  if (seen.size > 0) await compute.cancelMany([...seen]).catch(() => {});
});

/** A benchmark that sleeps `sleep` s (or the file `slow` says) and prints its score; exits 1 when `crash` exists. */
const bench = (score: string) => ({
  "bench.sh": `[ -f crash ] && { echo "boom" >&2; exit 1; }\nsleep "$(cat slow 2>/dev/null || echo 1)"\n` +
    `printf '{"score": %s, "rss_kb": 7}\\n' "$(cat score)"\n`,
  score,
});

async function setup(options: Partial<MeasurerOptions>, files: Record<string, string>[] = [bench("10"), bench("12")]) {
  const { repo, shas } = await makeRepo(files);
  for (const sha of shas) await pinSha(repo, sha);
  const runDir = join(tempDir("live-look-"), "run");
  const measurer = testMeasurer(runDir, compute, {
    repoRoot: repo,
    lanes: { account: "acct_a", partition: "cpu", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 2,
    runTag: `lk${Date.now().toString(36)}`,
    arrays: { enabled: true, throttle: null },
    ...options,
  });
  return { measurer, shas, runDir };
}

/** Two pairs of baseline and candidate (a look of four measures). */
function twoPairs(base: string, cand: string): Measure[] {
  const one = planMeasures({ command: "sh bench.sh", metric: "score", baseSha: base, candidateSha: cand });
  const two = one.map((m): Measure => ({ ...m, name: `${m.name}#2`, extraEnv: [["SEED", "2"]] }));
  return [...one, ...two];
}

/** Looks again and again until nothing is pending. */
async function lookUntilComplete(
  measurer: DispatchedMeasurer,
  measures: readonly Measure[],
  options: LookOptions = {},
  timeoutMs = 150_000,
): Promise<LookResults> {
  return await waitFor(
    "the look to complete",
    async () => {
      const r = await measurer.look(measures, options);
      for (const id of Object.values(r.jobIds)) seen.add(id.split("_")[0]!);
      return r;
    },
    (r) => r.pending === null,
    timeoutMs,
    1000,
  );
}

/** The sacct state of a task (or job), "" before it has a row. */
async function stateOf(ref: string): Promise<string> {
  return (await slurmCommand(["sacct", "-X", "-n", "-P", "-j", ref, "-o", "JobID,State"])).split("\n")
    .map((l) => l.split("|")).find((f) => f[0] === ref)?.[1] ?? "";
}

liveIt("an scancel of one task, pending and running, is sent again and the look completes", 300_000, async () => {
  const { measurer, shas } = await setup({ arrays: { enabled: true, throttle: 1 } }, [
    { ...bench("10"), slow: "8" },
    { ...bench("12"), slow: "8" },
  ]);
  const look = twoPairs(shas[0]!, shas[1]!);
  const first = await measurer.look(look);
  assert.ok(first.pending !== null && first.failed.length === 0, JSON.stringify(first));
  const tasks = look.map((m) => first.jobIds[m.name]!);
  for (const t of tasks) seen.add(t.split("_")[0]!);
  // throttled to one at a time: task 0 runs while the others wait
  const running = await waitFor(
    "a task to run",
    async () => {
      for (const t of tasks) if ((await stateOf(t)) === "RUNNING") return t;
      return null;
    },
    (t) => t !== null,
    60_000,
    250,
  );
  const pending = tasks.find((t) => t !== running && t.endsWith("_3"))!;
  await waitFor(
    "the eval to start",
    async () => {
      const m = look[tasks.indexOf(running!)]!;
      return existsSync(join(measurer.evalDir(m), EVAL_FILES.started));
    },
    Boolean,
    30_000,
    200,
  );
  await slurmCommand(["scancel", pending]);
  await slurmCommand(["scancel", running!]);
  const ended = await waitFor(
    "the running task to end",
    () => stateOf(running!),
    (st) => st !== "RUNNING",
    60_000,
    250,
  );
  assert.match(ended, /^CANCELLED/, "cancelled while its eval ran");
  const done = await lookUntilComplete(measurer, look);
  assert.deepEqual(done.failed, []);
  assert.deepEqual(done.cancelled, []);
  assert.deepEqual(Object.keys(done.values).sort(), look.map((m) => m.name).sort());
  for (const t of [running!, pending]) {
    const m = look[tasks.indexOf(t)]!;
    assert.notEqual(done.jobIds[m.name], t, `${m.name} ran again in a job of its own`);
    assert.match(readFileSync(join(measurer.evalDir(m), "retried"), "utf8"), new RegExp(`^${t}$`, "m"));
  }
  const runningM = look[tasks.indexOf(running!)]!;
  assert.ok(existsSync(join(measurer.evalDir(runningM), "attempt-1", EVAL_FILES.started)), "the killed attempt kept");
  assert.deepEqual(done.metrics[look[0]!.name], { rss_kb: 7 });
});

liveIt(
  "a crashed eval is reported in failed while the others complete; what outerloop cancelled is not",
  240_000,
  async () => {
    const { measurer, shas } = await setup({}, [bench("10"), { ...bench("12"), crash: "" }]);
    const look = twoPairs(shas[0]!, shas[1]!);
    const r = await lookUntilComplete(measurer, look);
    assert.deepEqual(r.failed.map((f) => [f.measure, f.kind, f.cause]), [
      ["candidate", "exit", "eval command exited with code 1"],
      ["candidate#2", "exit", "eval command exited with code 1"],
    ]);
    assert.match(r.failed[0]!.message, /boom/, "the log tail");
    assert.deepEqual(r.values, { baseline: 10, "baseline#2": 10 });

    // a look whose task outerloop cancelled itself (as a run's cancel or a dropped arm would)
    const other = await setup({}, [{ ...bench("10"), slow: "30" }, { ...bench("12"), slow: "30" }]);
    const look2 = twoPairs(other.shas[0]!, other.shas[1]!);
    const sent = await other.measurer.look(look2);
    const victim = sent.jobIds["candidate#2"]!;
    seen.add(victim.split("_")[0]!);
    await compute.cancelMany([victim]);
    // a task cancelled while it waited has no sacct row at all; one that ran ends CANCELLED
    await waitFor(
      "the cancel to show",
      async () => {
        const listed = [...(await compute.activeJobs()).values()].flat().some((j) => j.id === victim);
        return listed ? "listed" : await stateOf(victim);
      },
      (s) => s === "" || s.startsWith("CANCELLED"),
      60_000,
      250,
    );
    const ours = new Set([victim]);
    const after = await lookUntilComplete(other.measurer, look2, { cancelledByUs: ours });
    assert.deepEqual(after.failed, []);
    assert.deepEqual(after.cancelled, ["candidate#2"]);
    assert.equal(after.jobIds["candidate#2"], victim, "not sent again");
  },
);

liveIt("resource use of array tasks and of a pair job's measures comes from sacct", 240_000, async () => {
  const arrays = await setup({});
  const look = twoPairs(arrays.shas[0]!, arrays.shas[1]!);
  const r = await lookUntilComplete(arrays.measurer, look);
  const jobs = look.map((m) => ({ name: m.name, jobId: r.jobIds[m.name]! }));
  assert.ok(jobs.every((j) => /^[0-9]+_[0-9]+$/.test(j.jobId)), JSON.stringify(jobs));
  const usage = await waitFor(
    "the tasks' usage",
    () => measureUsage(compute, jobs, new Date(Date.now() - 3_600_000).toISOString()),
    (u) => Object.keys(u).length === 4,
    60_000,
    1000,
  );
  for (const [name, u] of Object.entries(usage)) {
    assert.equal(u.jobId, r.jobIds[name]);
    assert.ok(u.elapsedS !== null && u.timelimitS === 120, JSON.stringify(u));
    assert.ok(u.cpuEfficiency === null || u.cpuEfficiency <= 1, `never above what was asked: ${u.cpuEfficiency}`);
  }

  const pairs = await setup({ pairing: "same-job" });
  const pairLook = twoPairs(pairs.shas[0]!, pairs.shas[1]!);
  const p = await lookUntilComplete(pairs.measurer, pairLook);
  const pairJobs = pairLook.map((m) => ({ name: m.name, jobId: p.jobIds[m.name]! }));
  assert.equal(pairJobs[0]!.jobId, pairJobs[1]!.jobId, "one pair job for baseline and candidate");
  const pairUsage = await waitFor(
    "the pair jobs' usage",
    () => measureUsage(compute, pairJobs, new Date(Date.now() - 3_600_000).toISOString()),
    (u) => Object.keys(u).length === 4,
    60_000,
    1000,
  );
  assert.deepEqual(pairUsage["baseline"], pairUsage["candidate"], "both measures share their job's row");
  assert.equal(pairUsage["baseline"]!.timelimitS, 240, "the pair job's walltime: both measures' added up");
});
