// test.sh: alone — it stops slurmctld, which every other live test's jobs need
/**
 * The main job on the real testbed: the measurer in-process (dispatch → park
 * → jobs finish → results), then the compiled binary through the whole cycle
 * — measure parks (75), the wake job runs `resume` inside Slurm, the decision
 * appears — plus a cancelled eval job and a slurmctld outage during a resume.
 */
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { pinSha } from "../../src/dispatch/pin.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { MeasurementPending } from "../../src/measure/pending.ts";
import { planMeasures } from "../../src/measure/plan.ts";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { jobEnded, liveIt, observeState, slurmCommand, testbed, waitFor } from "../helpers/slurm_live.ts";

/** Reports its score, the commit it runs on and where, so the test can check the checkout. */
const bench = (score: string, sleep = "0") => ({
  "bench.sh":
    `sleep ${sleep}\nprintf '{"score": %s, "sha": "%s", "cwd": "%s"}\\n' "$(cat score)" "$(git rev-parse HEAD)" "$PWD"\n`,
  score,
  sleep,
});

function contract(): string {
  const file = join(tempDir("live-contract-"), "contract.json");
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

async function cli(binary: string, ...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [binary, ...args], timeoutMs: 180_000, output: "separate" });
}

async function measure(binary: string, repo: string, base: string, cand: string, runDir: string): Promise<SpawnResult> {
  return await cli(binary, ...testbedMeasureArgv({ repo, shas: [base, cand], contract: contract(), runDir }, "--json"));
}

/** The eval dirs' result.json files, by measure name. */
function results(runDir: string): Record<string, { score: number; sha: string; cwd: string }> {
  const out: Record<string, { score: number; sha: string; cwd: string }> = {};
  for (const d of readdirSync(runDir).filter((f) => f.startsWith("eval-"))) {
    const name = d.slice(5).split("-")[0]!;
    const lines = readFileSync(join(runDir, d, EVAL_FILES.stdout), "utf8").trim().split("\n");
    out[name] = JSON.parse(lines.at(-1)!);
  }
  return out;
}

liveIt("the measurer dispatches to Slurm, parks, and reads both results once the jobs finish", 120_000, async () => {
  const { repo, shas } = await makeRepo([bench("10", "1"), bench("12", "1")]);
  const [base, cand] = shas as [string, string];
  await pinSha(repo, base);
  await pinSha(repo, cand);
  const runDir = join(tempDir("live-measurer-"), "run");
  const compute = new SlurmCompute();
  const measurer = testMeasurer(runDir, compute, {
    repoRoot: repo,
    lanes: { account: "acct_a", partition: "cpu", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 2,
    runTag: `lm${Date.now().toString(36)}`,
  });
  const plan = planMeasures({
    command: "sh bench.sh",
    metric: "score",
    baseSha: base,
    candidateSha: cand,
    seedEnv: "SEED",
    seed: 3,
  });
  const parked = await measurer.results(plan).then(() => null, (e: unknown) => e);
  assert.ok(parked instanceof MeasurementPending, String(parked));
  assert.equal(parked.jobIds.length, 2);
  // a second pass while they are queued or running parks on the same ids, submitting nothing new
  const again = await measurer.results(plan).then(() => null, (e: unknown) => e);
  if (again instanceof MeasurementPending && again.jobIds.length > 0) assert.deepEqual(again.jobIds, parked.jobIds);
  const values = await waitFor(
    "both results",
    () => measurer.results(plan).catch((e: unknown) => (e instanceof MeasurementPending ? null : Promise.reject(e))),
    (v) => v !== null,
    90_000,
    500,
  );
  assert.deepEqual(values, { baseline: 10, candidate: 12 });
  for (const id of parked.jobIds) observeState(await compute.status(id));
});

liveIt("measure parks with exit 75, the wake job resumes inside Slurm, and the decision appears", 180_000, async () => {
  const binary = await ensureBinary();
  const { repo, shas } = await makeRepo([bench("10", "2"), bench("12", "2")]);
  const [base, cand] = shas as [string, string];
  writeFileSync(join(repo, "score"), "999"); // a dirty working tree the jobs must not see
  const runDir = join(tempDir("live-cycle-"), "cycle");
  const started = Date.now();
  const r = await measure(binary, repo, base, cand, runDir);
  assert.equal(r.exitCode, 75, r.stderr);
  const parked = JSON.parse(r.stdout);
  assert.equal(parked.status, "parked");
  assert.equal(parked.pending.length, 2);
  // the wake waits for every eval, or for the candidate's to fail (a crash verdict needs no baseline)
  const [afterAll, afterCrash] = parked.dependency.split("?");
  assert.equal(afterAll, `afterany:${parked.pending.join(":")}`);
  const wake = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
  assert.equal(wake.job_id, parked.wake_job);
  const command = await slurmCommand(["scontrol", "show", "job", wake.job_id]);
  assert.match(command, /Dependency=afterany:/);
  // show, while parked: each measure with its job id, the wake job, no verdict
  const shown = await cli(binary, "show", runDir, "--json");
  assert.equal(shown.exitCode, 0, shown.stderr);
  const s = JSON.parse(shown.stdout);
  for (const m of s.measures) {
    assert.ok(["pending", "running", "done"].includes(m.state), JSON.stringify(m));
    if (m.state !== "done") assert.ok(parked.pending.includes(m.job_id), JSON.stringify(m));
  }
  const candidateJob = s.measures.find((m: { name: string }) => m.name === "candidate").job_id;
  assert.equal(afterCrash, `afternotok:${candidateJob}`);
  assert.equal(s.wake.job_id, wake.job_id);

  await waitFor("decision.json", () => existsSync(join(runDir, "decision.json")), Boolean, 150_000, 500);
  const elapsed = Date.now() - started;
  process.stderr.write(`live-slurm cycle: measure -> decision.json in ${elapsed} ms\n`);
  const decision = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  assert.equal(decision.verdict, "accept");
  assert.deepEqual(decision.values, { baseline: 10, candidate: 12 });
  assert.equal(await jobEnded(wake.job_id), "COMPLETED");
  assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /verdict: accept/);
  const res = results(runDir);
  assert.equal(res["baseline"]!.sha, base);
  assert.equal(res["candidate"]!.sha, cand);
  for (const x of Object.values(res)) {
    assert.notEqual(x.cwd, repo);
    assert.match(x.cwd, /outerloop-eval\.[^/]+\/tree$/);
    assert.equal(existsSync(x.cwd), false, "the checkout was not removed");
  }
});

liveIt(
  "an eval job cancelled by someone else is sent again: resume parks on its new job, the attempt kept",
  240_000,
  async () => {
    const binary = await ensureBinary();
    const { repo, shas } = await makeRepo([bench("10", "0"), bench("12", "300")]);
    const runDir = join(tempDir("live-cancel-"), "cancel");
    const r = await measure(binary, repo, shas[0]!, shas[1]!, runDir);
    assert.equal(r.exitCode, 75, r.stderr);
    const candDir = readdirSync(runDir).find((f) => f.startsWith("eval-candidate-"))!;
    const candJob = readFileSync(join(runDir, candDir, EVAL_FILES.submitted), "utf8").trim();
    const compute = new SlurmCompute();
    await waitFor("RUNNING", () => compute.status(candJob), (s) => s === "RUNNING", 60_000, 250);
    // RUNNING comes before the job script's first line: cancelled before it traps TERM, it records no 143
    // (seen on 24.11 under load); `started` is written after the trap
    await waitFor("started", () => existsSync(join(runDir, candDir, EVAL_FILES.started)), Boolean, 60_000, 250);
    await compute.cancel(candJob);
    await waitFor(
      "CANCELLED",
      () => compute.status(candJob).then(observeState),
      (s) => s.startsWith("CANCELLED"),
      60_000,
      250,
    );
    // the wake starts at the cancel (afternotok on the candidate: fail fast) and may set the attempt aside first
    const recorded = () =>
      existsSync(join(runDir, candDir, EVAL_FILES.exitCode)) ||
      existsSync(join(runDir, candDir, "attempt-1", EVAL_FILES.exitCode));
    await waitFor("the exit code", recorded, Boolean, 60_000, 250);
    try {
      // a cancel by someone else is no fault of the candidate's code: sent again (measure/retry.ts), not failed.
      // Not at once, though: while the listing still shows the job or sacct has no end for it, a pass waits for
      // the scheduler's word (parks, exit 75) and a later one sends it again (on 24.11 under load, CI part 3).
      // The wake (afterany on the evals) may be the pass that sends it: then its log says so.
      let said = "";
      const sentAgain = new RegExp(`job ${candJob} ended CANCELLED.*sent again \\(retry 1 of 2\\)`);
      await waitFor(
        "a pass that sends the candidate again",
        async () => {
          const resumed = await cli(binary, "resume", runDir);
          assert.equal(resumed.exitCode, 75, resumed.stderr);
          const wakeLog = existsSync(join(runDir, "wake.out")) ? readFileSync(join(runDir, "wake.out"), "utf8") : "";
          said += `resume:\n${resumed.stderr}\n`;
          return sentAgain.test(said + wakeLog);
        },
        Boolean,
        90_000,
        2000,
      ).catch((err) => {
        throw new Error(`${(err as Error).message}\n${said}`);
      });
      const again = readFileSync(join(runDir, candDir, EVAL_FILES.submitted), "utf8").trim();
      assert.notEqual(again, candJob);
      assert.equal(readFileSync(join(runDir, candDir, "retried"), "utf8"), `${candJob}\n`);
      assert.equal(readFileSync(join(runDir, candDir, "attempt-1", EVAL_FILES.exitCode), "utf8"), "143");
      assert.equal(existsSync(join(runDir, "decision.json")), false);
    } finally {
      await cli(binary, "cancel", runDir);
    }
  },
);

liveIt(
  "a resume during a slurmctld outage exits 4 or 75 and loses nothing; the next resume completes",
  180_000,
  async () => {
    const binary = await ensureBinary();
    // jobs long enough to still be running while slurmctld is down: a result already on disk
    // would (rightly) be read and decided on, which is not what this test is about. The resume
    // retries the dead controller for ~30 s (one round of retries, then one try per command)
    const { repo, shas } = await makeRepo([bench("10", "50"), bench("9", "50")]);
    const runDir = join(tempDir("live-outage-"), "outage");
    const r = await measure(binary, repo, shas[0]!, shas[1]!, runDir);
    assert.equal(r.exitCode, 75, r.stderr);
    const runJson = readFileSync(join(runDir, "run.json"), "utf8");
    await testbed("stop", "slurmctld");
    let during: SpawnResult;
    try {
      during = await cli(binary, "resume", runDir);
    } finally {
      await testbed("start", "slurmctld");
    }
    assert.ok(during.exitCode === 4 || during.exitCode === 75, `exit ${during.exitCode}: ${during.stderr}`);
    assert.match(during.stderr, /resume/);
    assert.equal(readFileSync(join(runDir, "run.json"), "utf8"), runJson);
    const final = await waitFor(
      "a resume that does not park",
      async () => {
        const x = await cli(binary, "resume", runDir, "--json");
        return x.exitCode === 75 ? null : x;
      },
      (x) => x !== null,
      150_000,
      2000,
    );
    assert.equal(final!.exitCode, 10, final!.stderr);
    assert.equal(JSON.parse(final!.stdout).verdict, "reject");
  },
);
