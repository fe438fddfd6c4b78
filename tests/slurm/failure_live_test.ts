/**
 * What a loop meets when a measure fails, through the binary on the real
 * testbed, as a user drives it (`measure`, `wait`, `resume`, `show --json`):
 * a round whose one candidate crashes decides among the others with no other
 * arm's job cancelled; a run failed by its baseline is taken up again with
 * `resume --retry-failed` once the cause is fixed, sending only what failed
 * and keeping every value measured; `--json` on exit 3 is one object naming
 * the failed measure, its job and the cause; and the wakes of a `measure
 * --wait` run end as the README says a climb's wakes do.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import {
  evalDirOf,
  failureBench as bench,
  failureContract,
  type Json,
  markerOf,
  oneObject,
} from "../helpers/failure_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { live, liveIt, observeState, slurmCommand, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

/** Every run tag this file used: their jobs (`eval-<tag>-…`, `wake-<tag>-…`) are cancelled at the end. */
const tags: string[] = [];
after(async () => {
  if (live.kind !== "run" || tags.length === 0) return;
  const listed = await slurmCommand(["squeue", "-h", "-o", "%j"]).catch(() => "");
  const names = new Set(listed.split("\n").filter((n) => tags.some((t) => ownedBy(n, t))));
  for (const name of names) await slurmCommand(["scancel", "-n", name]).catch(() => "");
});

/** A tag of its own for each run: `<prefix><4 random>`, at most 10 characters, as job names keep it whole. */
function newTag(prefix: string): string {
  const tag = `${prefix}${Math.random().toString(36).slice(2, 6)}`;
  tags.push(tag);
  return tag;
}

/** Whether a job name is one of run `tag`'s evals or wakes. */
function ownedBy(name: string, tag: string): boolean {
  return name.startsWith(`eval-${tag}-`) || name.startsWith(`wake-${tag}-`);
}

async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 200_000, output: "separate" });
}

/** `outerloop measure` of base `shas[0]` against every other sha, on the testbed's lane, then `more`. */
function measureArgs(
  repo: string,
  shas: readonly string[],
  file: string,
  runDir: string,
  tag: string,
  ...more: string[]
) {
  return [
    ...testbedMeasureArgv({ repo, shas, contract: file, runDir }),
    "--run-tag",
    tag,
    "--seed",
    "3",
    ...more,
  ];
}

/** One allocation's row in sacct. */
interface SacctRow {
  readonly id: string;
  readonly name: string;
  readonly state: string;
  readonly start: string;
}

/** sacct's rows (allocations, `-X`) of run `tag`'s jobs of `kind` from the last hours. */
async function sacctRows(tag: string, kind: "eval" | "wake"): Promise<SacctRow[]> {
  const out = await slurmCommand([
    "sacct",
    "-X",
    "-n",
    "-P",
    "-S",
    "now-3hours",
    "--format=JobID,JobName%100,State,Start",
  ]);
  return out.split("\n").map((l) => l.split("|")).filter((f) => f.length >= 4 && f[1]!.startsWith(`${kind}-${tag}-`))
    .map(([id, name, state, start]) => ({ id: id!, name: name!, state: observeState(state!), start: start! }));
}

/** The job ids of `jobIds` that have a `.batch` step in sacct: they started running. */
async function ranJobs(jobIds: readonly string[]): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set();
  const out = await slurmCommand(["sacct", "-n", "-P", "-j", jobIds.join(","), "--format=JobID"]);
  return new Set(out.split("\n").filter((l) => l.endsWith(".batch")).map((l) => l.slice(0, -".batch".length)));
}

const TERMINAL = /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE)/;

/**
 * Waits until every wake of run `tag` has ended in sacct, and asserts the one
 * rule of a wake's end: COMPLETED whenever its pass ran, whatever the
 * verdict — or CANCELLED while still pending (never started), a wake the
 * run no longer needed. Returns the wakes' rows.
 */
async function wakesEnded(tag: string, runDir: string): Promise<SacctRow[]> {
  const last = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).job_id;
  const wakes = await waitFor(
    "every wake of the run ended in sacct",
    () => sacctRows(tag, "wake"),
    (w) => w.some((x) => x.id === last) && w.every((x) => TERMINAL.test(x.state)),
    90_000,
    500,
  );
  const ran = await ranJobs(wakes.map((w) => w.id));
  for (const w of wakes) {
    const cancelledPending = w.state.startsWith("CANCELLED") && !ran.has(w.id) && /^(Unknown|None)$/.test(w.start);
    assert.ok(
      w.state === "COMPLETED" || cancelledPending,
      `wake ${w.id} ended ${w.state} (start ${w.start}, ran ${ran.has(w.id)}): a wake ends COMPLETED, or ` +
        "CANCELLED while still pending — a running wake is never cancelled",
    );
  }
  return wakes;
}

liveIt(
  "a round whose one candidate crashes decides among the others, names the crash, and cancels no other arm's job",
  240_000,
  async () => {
    const started = Date.now();
    // base 10; candidate +3 (the winner on every seed), candidate-2 crashes, candidate-3 −2 (dropped by the screen)
    const { repo, shas } = makeRepo([bench(10), bench(13), bench(10, "crash"), bench(8)]);
    const tag = newTag("fa");
    const runDir = join(tempDir("live-failure-round-"), tag);
    const file = failureContract({ repeats: 3, max_repeats: 3 });
    const parked = await cli(...measureArgs(repo, shas, file, runDir, tag, "--json"));
    assert.equal(parked.exitCode, 75, parked.stderr);
    const waited = await cli("wait", runDir, "--poll", "2", "--timeout", "180", "--json");
    assert.equal(waited.exitCode, 0, `a winner among the others: ${waited.stderr}`);
    const w = oneObject(waited);
    assert.equal(w.verdict, "accept");
    assert.equal(w.winner.arm, 1);
    assert.equal(w.candidate_sha, shas[1], "the commit to merge is the winner's");
    const crashedArm = w.candidates.find((c: Json) => c.arm === 2);
    assert.deepEqual([crashedArm.verdict, crashedArm.standing, crashedArm.because], ["crashed", "dropped", "crashed"]);
    // the screen sends candidate-2's pairs at once (candidate-2, candidate-2#2): the first crash met is the arm's
    const crashed = crashedArm.crash.measure;
    assert.match(crashed, /^candidate-2(#2)?$/);
    const crashJob = markerOf(runDir, crashed);
    assert.deepEqual([crashedArm.crash.job_id, crashedArm.crash.cause], [crashJob, "eval command exited with code 1"]);
    assert.match(crashedArm.crash.message, /^Traceback: the proposal broke$/m, "the crash carries its log's tail");

    // decision.json and show --json name the same crash
    const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    assert.equal(d.verdict, "accept");
    const c2 = d.round.candidates.find((c: Json) => c.arm === 2);
    assert.deepEqual([c2.verdict, c2.crash.measure, c2.crash.job_id], ["crashed", crashed, crashJob]);
    assert.equal(existsSync(join(runDir, "failure.json")), false, "a candidate's crash is not the run's failure");
    // candidate-2's other measure (its pair 2, sent with the first) crashed too, or, when it had not ended by
    // the pass that met the first crash, was stopped by fail fast (seen with 4 files at a time): the crashed
    // arm's own, never another arm's
    const shown = await cli("show", runDir, "--json");
    assert.equal(shown.exitCode, 0, shown.stderr);
    const s = oneObject(shown);
    assert.equal(s.state, "decided");
    const stateOf = (name: string) => s.measures.find((m: Json) => m.name === name)?.state;
    const other = crashed === "candidate-2" ? "candidate-2#2" : "candidate-2";
    assert.equal(stateOf(crashed), "crashed");
    assert.ok(["crashed", "cancelled"].includes(stateOf(other)), `${other}: ${stateOf(other)}`);
    const stopped = s.measures.filter((m: Json) => m.state === "cancelled").map((m: Json) => m.name);
    assert.deepEqual(stopped.filter((n: string) => n !== other), [], "no other arm's measure was stopped");
    assert.deepEqual(
      s.crashes.map((c: Json) => c.measure).sort(),
      stateOf(other) === "crashed" ? ["candidate-2", "candidate-2#2"] : [crashed],
    );
    for (const c of s.crashes) {
      assert.deepEqual([c.job_id, c.cause], [markerOf(runDir, c.measure), "eval command exited with code 1"]);
    }
    const sc2 = s.round.candidates.find((c: Json) => c.arm === 2);
    assert.deepEqual([sc2.verdict, sc2.crash.job_id], ["crashed", crashJob]);

    // sacct: every eval task of the round ended of itself but the crashed arm's stopped one (a task cancelled
    // while pending has no row of its own)
    const measured = Object.keys(d.values).length + s.crashes.length; // a crashed measure has no value
    const rows = await waitFor(
      "every eval task of the round ended in sacct",
      () => sacctRows(tag, "eval"),
      (r) => r.length >= measured && r.every((x) => TERMINAL.test(x.state)),
      60_000,
      500,
    );
    const stoppedJobs = stopped.map((n: string) => markerOf(runDir, n));
    assert.ok(rows.length <= measured + stopped.length, `one task per measure: ${JSON.stringify(rows)}`);
    assert.deepEqual(
      rows.filter((r) => r.state.startsWith("CANCELLED") && !stoppedJobs.includes(r.id)),
      [],
      "no other arm's job was cancelled",
    );
    await wakesEnded(tag, runDir);
    process.stderr.write(
      `live failure (round crash): eval tasks ${rows.map((r) => `${r.id} ${r.state}`).join(", ")}; ` +
        `wall ${Date.now() - started} ms\n`,
    );
  },
);

liveIt(
  "a run its baseline failed, taken up with resume --retry-failed once the cause is fixed, sends only what failed",
  240_000,
  async () => {
    const started = Date.now();
    const dir = tempDir("live-failure-retry-");
    const flag = join(dir, "broken");
    writeFileSync(flag, "the baseline's benchmark fails while this file exists\n");
    const { repo, shas } = makeRepo([bench(10, "flagged"), bench(12)]);
    const tag = newTag("fb");
    const runDir = join(dir, tag);
    const file = failureContract({ command: `sh bench.sh ${flag}`, repeats: 2, max_repeats: 2 });
    const parked = await cli(...measureArgs(repo, shas, file, runDir, tag, "--json"));
    assert.equal(parked.exitCode, 75, parked.stderr);
    const failed = await cli("wait", runDir, "--poll", "2", "--timeout", "180", "--json");
    assert.equal(failed.exitCode, 3, failed.stderr);
    const f = JSON.parse(readFileSync(join(runDir, "failure.json"), "utf8"));
    assert.match(f.measure, /^baseline(#2)?$/);
    assert.deepEqual([f.job_id, f.kind, f.cause], [
      markerOf(runDir, f.measure),
      "exit",
      "eval command exited with code 1",
    ]);
    assert.deepEqual(oneObject(failed).failure, f, "wait --json gives failure.json's failure");

    // what was measured before the retry: the candidate's two pairs, each in its own task
    const before = await waitFor(
      "the run's four eval tasks ended in sacct",
      () => sacctRows(tag, "eval"),
      (r) => r.length >= 4 && r.every((x) => TERMINAL.test(x.state)),
      60_000,
      500,
    );
    assert.equal(before.length, 4, JSON.stringify(before));
    const shown = oneObject(await cli("show", runDir, "--json"));
    assert.equal(shown.state, "failed");
    const kept = Object.fromEntries(
      shown.measures.filter((m: Json) => m.state === "done").map((m: Json) => [m.name, [m.value, m.job_id]]),
    );
    assert.deepEqual(Object.keys(kept).sort(), ["candidate", "candidate#2"]);
    assert.deepEqual(
      shown.measures.filter((m: Json) => m.state === "failed").map((m: Json) => m.name).sort(),
      ["baseline", "baseline#2"],
    );
    const oldBase = ["baseline", "baseline#2"].map((m) => markerOf(runDir, m));

    // the cause fixed, the run taken up: only the two failed measures are sent again, as a new array
    rmSync(flag);
    const retried = await cli("resume", runDir, "--retry-failed", "--json");
    assert.equal(retried.exitCode, 75, retried.stderr);
    assert.equal(oneObject(retried).status, "parked");
    assert.match(
      retried.stderr,
      /retrying the run: baseline, baseline#2 set aside|retrying the run: baseline#2, baseline/,
    );
    const decided = await cli("wait", runDir, "--poll", "2", "--timeout", "180", "--json");
    assert.equal(decided.exitCode, 0, decided.stderr);
    const d = oneObject(decided);
    assert.equal(d.verdict, "accept");
    for (const [name, [value, job]] of Object.entries(kept) as [string, [number, string]][]) {
      assert.equal(d.values[name], value, `${name}'s value is kept`);
      assert.equal(markerOf(runDir, name), job, `${name} was not measured again`);
    }
    const newBase = ["baseline", "baseline#2"].map((m) => markerOf(runDir, m));
    const after = await waitFor(
      "the two re-sent tasks ended in sacct",
      () => sacctRows(tag, "eval"),
      (r) => r.length >= 6 && r.every((x) => TERMINAL.test(x.state)),
      60_000,
      500,
    );
    assert.equal(after.length, 6, `4 tasks, then the 2 that failed: ${JSON.stringify(after)}`);
    const oldIds = new Set(before.map((r) => r.id));
    assert.deepEqual(after.filter((r) => !oldIds.has(r.id)).map((r) => r.id).sort(), [...newBase].sort());
    for (const [i, id] of newBase.entries()) assert.notEqual(id, oldBase[i], "a new job, never the failed one adopted");

    // the failure is history now, not the run's standing
    assert.equal(existsSync(join(runDir, "failure.json")), false);
    const history = JSON.parse(readFileSync(join(runDir, "failure-history.json"), "utf8")).failures;
    assert.equal(history.length, 1);
    const { retried_at: _at, ...old } = history[0];
    assert.deepEqual(old, f, "failure-history.json keeps the old failure as failure.json had it");
    process.stderr.write(`live failure (retry-failed): wall ${Date.now() - started} ms\n`);
  },
);

liveIt(
  "--json on exit 3: exactly one object naming the failed measure, its job and the cause",
  180_000,
  async () => {
    const started = Date.now();
    const dir = tempDir("live-failure-json-");
    const flag = join(dir, "broken");
    writeFileSync(flag, "x\n");
    const { repo, shas } = makeRepo([bench(10, "flagged"), bench(12)]);
    const tag = newTag("fc");
    const runDir = join(dir, tag);
    const file = failureContract({ command: `sh bench.sh ${flag}` });
    const measured = await cli(...measureArgs(repo, shas, file, runDir, tag, "--wait", "--poll", "2", "--json"));
    assert.equal(measured.exitCode, 3, measured.stderr);
    const job = markerOf(runDir, "baseline");
    const answers = [
      ["measure --wait", measured],
      ["wait", await cli("wait", runDir, "--json")],
      ["resume", await cli("resume", runDir, "--json")],
    ] as const;
    for (const [what, r] of answers) {
      assert.equal(r.exitCode, 3, `${what}: ${r.stderr}`);
      const j = oneObject(r);
      assert.deepEqual(
        [j.status, j.command, j.exit_code, j.error.kind, j.state, j.verdict],
        ["error", what.split(" ")[0], 3, "eval-failed", "failed", null],
        what,
      );
      assert.deepEqual(
        [j.failure.measure, j.failure.job_id, j.failure.cause],
        ["baseline", job, "eval command exited with code 1"],
        `${what}: ${JSON.stringify(j.failure)}`,
      );
      assert.match(j.error.message, new RegExp(`^measure baseline \\(job ${job}\\): Eval command exited with code 1`));
      assert.match(j.failure.message, /^broken while \S+ exists$/m, `${what}: the failure carries the log's tail`);
    }
    process.stderr.write(`live failure (--json on exit 3): wall ${Date.now() - started} ms\n`);
  },
);

liveIt(
  "a measure --wait run's wakes end in sacct as the README says: COMPLETED, or CANCELLED before they ever ran",
  240_000,
  async () => {
    const started = Date.now();
    // noisy pairs around a difference of min_effect: a second look is likely, so likely a second wake
    const { repo, shas } = makeRepo([bench(10, "ok", 1), bench(11, "ok", 3)]);
    const tag = newTag("fd");
    const runDir = join(tempDir("live-failure-wakes-"), tag);
    const file = failureContract({ repeats: 2, max_repeats: 4, min_effect: 0.5 });
    const r = await cli(...measureArgs(repo, shas, file, runDir, tag, "--wait", "--poll", "2", "--json"));
    assert.ok([0, 10, 11].includes(r.exitCode!), `a verdict: exit ${r.exitCode}: ${r.stderr}`);
    const d = oneObject(r);
    assert.equal(d.status, "decided");
    const looks = d.n / 2;
    const wakes = await wakesEnded(tag, runDir);
    assert.ok(wakes.length >= looks, `a wake per look: ${looks} look(s), wakes ${JSON.stringify(wakes)}`);
    process.stderr.write(
      `live failure (wakes): ${looks} look(s), ${wakes.length} wake(s): ` +
        `${wakes.map((w) => `${w.id} ${w.state}`).join(", ")}; wall ${Date.now() - started} ms\n`,
    );
  },
);

liveIt(
  "a run whose candidate crashes is a verdict (exit 12), and its wake, whose pass gave it, ends COMPLETED",
  240_000,
  async () => {
    const started = Date.now();
    const { repo, shas } = makeRepo([bench(10), bench(10, "crash")]);
    const tag = newTag("fe");
    const runDir = join(tempDir("live-failure-crashed-"), tag);
    const file = failureContract({ repeats: 2, max_repeats: 2 });
    const parked = await cli(...measureArgs(repo, shas, file, runDir, tag, "--json"));
    assert.equal(parked.exitCode, 75, parked.stderr);
    const waited = await cli("wait", runDir, "--poll", "2", "--timeout", "180", "--json");
    assert.equal(waited.exitCode, 12, `the crash verdict: ${waited.stderr}`);
    assert.equal(oneObject(waited).verdict, "crashed");
    const wakes = await wakesEnded(tag, runDir);
    assert.ok(wakes.some((w) => w.state === "COMPLETED"), `the wake that decided ran: ${JSON.stringify(wakes)}`);
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /the pass ended with exit 12; the wake job exits 0/);
    process.stderr.write(
      `live failure (crash verdict): wakes ${wakes.map((w) => `${w.id} ${w.state}`).join(", ")}; ` +
        `wall ${Date.now() - started} ms\n`,
    );
  },
);

liveIt(
  "a RUNNING array task scancelled by someone else is sent again, however its 143 and the scheduler's account race",
  300_000,
  async () => {
    // the eval's exit-code file (143) lands while squeue lists the task COMPLETING and sacct may have no row
    // for it yet: a pass reading in that window once failed the run (Slurm 22.05, 2 of 5 tries); three tries
    for (let attempt = 1; attempt <= 3; attempt++) {
      const started = Date.now();
      const { repo, shas } = makeRepo([bench(10, "ok", 0, 8), bench(12, "ok", 0, 8)]);
      const tag = newTag("fr");
      const runDir = join(tempDir("live-failure-race-"), tag);
      const file = failureContract({ repeats: 2, max_repeats: 2, pairing: "separate" });
      const parked = await cli(...measureArgs(repo, shas, file, runDir, tag, "--json"));
      assert.equal(parked.exitCode, 75, parked.stderr);
      const task = markerOf(runDir, "baseline");
      await waitFor(
        "the baseline's task to run",
        async () => {
          const out = await slurmCommand(["squeue", "-h", "-r", "-j", task, "-o", "%T"]);
          return observeState(out.trim());
        },
        (s) => s === "RUNNING",
        60_000,
        100,
      );
      await waitFor(
        "its eval to start",
        async () => existsSync(join(evalDirOf(runDir, "baseline"), "started")),
        Boolean,
        30_000,
        100,
      );
      await slurmCommand(["scancel", task]);
      const waited = await cli("wait", runDir, "--poll", "1", "--timeout", "180", "--json");
      assert.equal(waited.exitCode, 0, `try ${attempt}: the run decides: ${waited.stderr}`);
      assert.equal(oneObject(waited).verdict, "accept");
      assert.equal(
        readFileSync(join(evalDirOf(runDir, "baseline"), "retried"), "utf8"),
        `${task}\n`,
        "sent again once",
      );
      assert.notEqual(markerOf(runDir, "baseline"), task);
      await wakesEnded(tag, runDir);
      process.stderr.write(
        `live failure (race, try ${attempt}): ${task} scancelled; wall ${Date.now() - started} ms\n`,
      );
    }
  },
);

/** A parked run of 2 separate pairs whose candidate task, once RUNNING, `scontrol requeue` sent back to PENDING. */
async function requeuedCandidate(tagPrefix: string, dirPrefix: string) {
  const { repo, shas } = makeRepo([bench(10, "ok", 0, 6), bench(12, "ok", 0, 6)]);
  const tag = newTag(tagPrefix);
  const runDir = join(tempDir(dirPrefix), tag);
  const file = failureContract({ repeats: 2, max_repeats: 2, pairing: "separate" });
  const parked = await cli(...measureArgs(repo, shas, file, runDir, tag, "--json"));
  assert.equal(parked.exitCode, 75, parked.stderr);
  const task = markerOf(runDir, "candidate");
  const evalDir = evalDirOf(runDir, "candidate");
  await waitFor(
    "the candidate's eval to start",
    async () => existsSync(join(evalDir, "started")),
    Boolean,
    60_000,
    100,
  );
  await slurmCommand(["scontrol", "requeue", task]);
  await waitFor(
    "the task to be queued again",
    async () => observeState((await slurmCommand(["squeue", "-h", "-r", "-j", task, "-o", "%T"])).trim()),
    (s) => s === "PENDING",
    60_000,
    200,
  );
  return { runDir, tag, task, evalDir };
}

liveIt(
  "a RUNNING task the scheduler requeues (scontrol requeue, as preemption does) runs again: its first attempt kept, counted once",
  300_000,
  async () => {
    const started = Date.now();
    const { runDir, tag, task, evalDir } = await requeuedCandidate("fq", "live-failure-requeue-");
    // Slurm holds a requeued job back (BeginTime) until its node has let go of the job's credential
    // (cred_expire: 30 s on the testbed, 120 s by default): left to it here; the next test starts it at once
    const waited = await cli("wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(waited.exitCode, 0, waited.stderr);
    const d = oneObject(waited);
    assert.equal(d.verdict, "accept");
    assert.equal(markerOf(runDir, "candidate"), task, "the same job ran again: nothing was sent anew");
    assert.equal(existsSync(join(evalDir, "retried")), false, "a requeue is the scheduler's, not a retry of ours");
    const first = join(evalDir, "attempt-1");
    assert.equal(readFileSync(join(first, "job"), "utf8"), `${task}\n`);
    assert.match(
      readFileSync(join(first, "why"), "utf8"),
      new RegExp(`^the scheduler requeued job ${task} and ran it`),
    );
    assert.ok(existsSync(join(first, "started")), "the first attempt's files are kept");
    assert.ok(
      Math.abs(d.values["candidate"] - 12) <= 0.2,
      `the second attempt's value, counted once: ${d.values["candidate"]}`,
    );
    const shown = oneObject(await cli("show", runDir, "--json"));
    const row = shown.measures.find((m: Json) => m.name === "candidate");
    assert.deepEqual(row.attempts.map((a: Json) => [a.job_id, a.requeued]), [[task, true]]);
    assert.equal(Object.keys(d.values).length, 4, "one value per measure");
    const rows = await slurmCommand(["sacct", "-D", "-X", "-n", "-P", "-j", task, "-o", "JobID,State"]);
    assert.match(rows, /REQUEUED/, `sacct keeps the first attempt: ${rows}`);
    await wakesEnded(tag, runDir);
    process.stderr.write(
      `live failure (requeue): ${task}: ${rows.trim().replace(/\n/g, ", ")}; wall ${Date.now() - started} ms\n`,
    );
  },
);

liveIt(
  "a requeued task started at once by hand, which Slurm may refuse on its node, is counted once either way",
  300_000,
  async () => {
    const { runDir, tag, task, evalDir } = await requeuedCandidate("fr", "live-failure-requeue-now-");
    // before the node has let go of the first run's credential: the run may be refused there ("Job
    // credential revoked", FAILED before the eval script runs; 1 in ~8 on 22.05 and 24.11), the eval dir
    // still holding the first run's 143 — which must not read as the candidate's crash
    await slurmCommand(["scontrol", "update", `jobid=${task}`, "StartTime=now"]);
    const waited = await cli("wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(waited.exitCode, 0, waited.stderr);
    const d = oneObject(waited);
    assert.equal(d.verdict, "accept");
    assert.ok(Math.abs(d.values["candidate"] - 12) <= 0.2, `counted once: ${d.values["candidate"]}`);
    assert.equal(Object.keys(d.values).length, 4, "one value per measure");
    const refused = markerOf(runDir, "candidate") !== task;
    if (refused) {
      assert.equal(readFileSync(join(evalDir, "retried"), "utf8"), `${task}\n`, "sent again once");
      const whys = readdirSync(evalDir).filter((n) => n.startsWith("attempt-")).map((n) =>
        readFileSync(join(evalDir, n, "why"), "utf8")
      );
      assert.ok(
        whys.some((w) => /in a run after the scheduler requeued it, before its eval started again/.test(w)),
        whys.join(),
      );
    } else {
      assert.match(
        readFileSync(join(evalDir, "attempt-1", "why"), "utf8"),
        new RegExp(`^the scheduler requeued job ${task}`),
      );
    }
    const rows = await slurmCommand(["sacct", "-D", "-X", "-n", "-P", "-j", task, "-o", "JobID,State"]);
    await wakesEnded(tag, runDir);
    process.stderr.write(
      `live failure (requeue, started at once): ${refused ? "refused on its node, sent again" : "ran again"}: ` +
        `${rows.trim().replace(/\n/g, ", ")}\n`,
    );
  },
);
