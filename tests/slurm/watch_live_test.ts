/**
 * Watching a climb on the real testbed, through the compiled binary: `wait`
 * across a real park → wake → decide cycle, `measure --wait`, `cancel` of a
 * parked run (its evals and wake leave squeue; show, resume and wait say
 * cancelled), a failed measure cancelling the run's other jobs, `runs --live`,
 * and resource figures read from the real sacct. Every run lands in one
 * climb dir, whose `runs` table is printed at the end.
 */
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { tempDir, tempDirsMade } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn as spawnChild } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { parseElapsed } from "../../src/compute/elapsed.ts";
import { parseCpuTime, parseMemory } from "../../src/compute/usage.ts";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { jobEnded, liveIt, slurmCommand, waitFor } from "../helpers/slurm_live.ts";

const bench = (score: string, sleep = "0") => ({
  "bench.sh": `sleep ${sleep}\nprintf '{"score": %s}\\n' "$(cat score)"\n`,
  score,
});
const crash = { "bench.sh": "echo 'Traceback: boom' >&2\nexit 1\n" };

const climb = join(tempDir("live-watch-"), "climb");
const tag = Date.now().toString(36);

function contract(): string {
  const file = join(tempDir("live-watch-contract-"), "contract.json");
  writeFileSync(
    file,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 2 }),
  );
  return file;
}

async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 240_000, output: "separate" });
}

async function measure(repo: string, base: string, cand: string, name: string, ...more: string[]) {
  const runDir = join(climb, name);
  const m = { repo, shas: [base, cand], contract: contract(), runDir };
  const r = await cli(...testbedMeasureArgv(m, "--run-tag", `${name}-${tag}`, ...more));
  return { r, runDir };
}

/** The ids of this user's queued and running jobs. */
/**
 * The ids of this file's jobs in squeue: by their work dir, script or output in a dir this file made (a
 * wake is `--wrap`, known only by its output). Other files' jobs run beside them (live files run side by side).
 */
async function queued(): Promise<Set<string>> {
  const ours = (p: string | undefined) => p !== undefined && tempDirsMade().some((d) => p.startsWith(d + "/"));
  const rows = (await slurmCommand(["squeue", "--me", "-h", "-r", "-o", "%i|%Z|%o"])).split("\n");
  // `-O` pads and cannot take a separator: the id, then the output path (the tests' paths have no spaces)
  const outputs = (await slurmCommand(["squeue", "--me", "-h", "-r", "-O", "JobID:40,STDOUT:4096"])).split("\n");
  return new Set([
    ...rows.map((l) => l.trim().split("|")).filter(([, dir, cmd]) => ours(dir) || ours(cmd)).map(([id]) => id!),
    ...outputs.map((l) => l.trim().split(/\s+/)).filter(([, out]) => ours(out)).map(([id]) => id!),
  ]);
}

/** Runs the binary's `wait` on a parked run, sends it SIGINT once it has shown progress, and reports its end. */
async function interruptedWait(runDir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawnChild(await ensureBinary(), ["wait", runDir, "--poll", "1"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
  const ended = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await waitFor("wait's first progress line", () => stderr, (t) => t.includes(" measures; waited "), 30_000, 100);
  // by pid: Deno's child.kill() reports the signal it sent as the way the child ended, whatever its exit code
  process.kill(child.pid!, "SIGINT");
  return { code: await ended, stderr };
}

/** The job id each eval dir of a run recorded, by measure name. */
function evalJobs(runDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(runDir).filter((f) => f.startsWith("eval-"))) {
    out[d.slice(5).split("-")[0]!] = readFileSync(join(runDir, d, EVAL_FILES.submitted), "utf8").trim();
  }
  return out;
}

liveIt("wait follows a real park, wake and decision, and exits with the verdict", 240_000, async () => {
  const { repo, shas } = makeRepo([bench("10", "3"), bench("12", "3")]);
  const { r, runDir } = await measure(repo, shas[0]!, shas[1]!, "r1-wait", "--json");
  assert.equal(r.exitCode, 75, r.stderr);
  const waited = await cli("wait", runDir, "--poll", "2", "--json");
  assert.equal(waited.exitCode, 0, waited.stderr);
  const out = JSON.parse(waited.stdout);
  assert.equal(out.status, "decided");
  assert.equal(out.verdict, "accept");
  assert.match(waited.stderr, /^outerloop: \d done, \d running, \d pending of 2 measures; waited /m);
  process.stderr.write(`live wait progress:\n${waited.stderr}`);
  // wait runs the pass itself once it sees the evals in, and cancels the wake it no longer needs — unless the
  // wake job got there first, when the wake's log has the verdict
  const wakeEnd = await jobEnded(JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).job_id);
  if (/cancelling wake job \d+: the run has been decided/.test(waited.stderr)) {
    assert.match(wakeEnd, /^CANCELLED/, "the wake, no longer needed");
  } else {
    assert.equal(wakeEnd, "COMPLETED");
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /verdict: accept/);
  }
});

liveIt("wait carries on a run whose wake job was lost: it makes the resume pass itself", 240_000, async () => {
  const { repo, shas } = makeRepo([bench("10", "3"), bench("12", "3")]);
  const { r, runDir } = await measure(repo, shas[0]!, shas[1]!, "r1b-lost-wake", "--json");
  assert.equal(r.exitCode, 75, r.stderr);
  await new SlurmCompute().cancelMany([JSON.parse(r.stdout).wake_job]); // the wake is lost
  const waited = await cli("wait", runDir, "--poll", "2");
  assert.equal(waited.exitCode, 0, waited.stderr);
  assert.match(waited.stdout, /^verdict: accept$/m);
  assert.equal(existsSync(join(runDir, "wake.out")), false, "no wake ever ran: wait decided");
});

liveIt("resource use: decision.json and show carry the figures the real sacct gives", 120_000, async () => {
  const runDir = join(climb, "r1-wait");
  // what the wake kept in decision.json (a figure sacct did not have yet is left out there) …
  const kept = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8")).usage ?? {};
  // … and what show asks sacct for the rest
  type Shown = { name: string; usage: Record<string, number | string> | null };
  const shown: Shown[] = await waitFor(
    "show with every measure's resource use",
    async () => JSON.parse((await cli("show", runDir, "--json")).stdout).measures as Shown[],
    (ms) => ms.every((m) => m.usage !== null),
    30_000,
    500,
  );
  const jobs = evalJobs(runDir);
  for (const { name, usage: u } of shown) {
    if (kept[name] !== undefined) assert.deepEqual(kept[name], u, `decision.json's ${name} is what show prints`);
    assert.equal(u!.job_id, jobs[name]);
    const raw = (await slurmCommand([
      "sacct",
      "-j",
      String(u!.job_id),
      "--parsable2",
      "--noheader",
      "-o",
      "JobID,Elapsed,Timelimit,AllocCPUS,ReqMem,MaxRSS",
    ])).trim().split("\n").map((l) => l.split("|"));
    process.stderr.write(`live sacct of ${name}: ${JSON.stringify(raw)}; outerloop: ${JSON.stringify(u)}\n`);
    const job = raw.find((f) => f[0] === u!.job_id)!;
    const batch = raw.find((f) => f[0] === `${u!.job_id}.batch`)!;
    assert.equal(job[2], "00:02:00");
    assert.equal(u!.timelimit_s, 120, "eval_minutes 2");
    assert.equal(job[4], "2G");
    assert.equal(u!.req_mem_bytes, 2 * 1024 ** 3);
    assert.equal(u!.alloc_cpus, Number(job[3]));
    assert.equal(u!.elapsed_s, parseElapsed(job[1]!));
    assert.equal(u!.max_rss_bytes, parseMemory(batch[5]!));
    assert.ok(Number(u!.max_rss_bytes) > 0);
    assert.ok(Number(u!.elapsed_s) >= 3, `the bench sleeps 3 s: elapsed ${u!.elapsed_s}`);
    assert.ok(Number(u!.cpu_efficiency) < 0.5, `a sleeping job barely uses its CPU: ${u!.cpu_efficiency}`);
  }
  const text = await cli("show", runDir);
  assert.match(text.stdout, /^resource use:$/m);
  assert.match(text.stdout, /^baseline\s+\d+\s+\ds\s+2m00s\s+[\d.]+ MiB\s+2 GiB\s+1\s+\d+%$/m);
});

liveIt(
  "usage() of a job that fills memory and a CPU: MaxRSS and efficiency as sacct and seff say",
  120_000,
  async () => {
    const compute = new SlurmCompute();
    const id = await compute.submit({
      jobName: `usage-probe-${tag}`,
      account: "acct_a",
      partition: "cpu",
      timeMinutes: 3,
      cpus: 2,
      mem: "400M",
      command: "python3 -c 'import time\nx = bytearray(150 * 2**20)\nfor i in range(0, len(x), 4096): x[i] = 1\n" +
        "t = time.time()\nwhile time.time() - t < 4: pass'",
    });
    const u = await waitFor(
      "the probe's final figures",
      async () => (await compute.usage([id], new Date(Date.now() - 600_000))).get(id),
      (x) => x !== undefined && x.state === "COMPLETED" && x.maxRssBytes !== null,
      90_000,
      500,
    );
    process.stderr.write(`live usage of a 150 MiB, 4 s busy job on 2 CPUs: ${JSON.stringify(u)}\n`);
    assert.ok(u!.maxRssBytes! >= 150 * 2 ** 20 && u!.maxRssBytes! < 400 * 2 ** 20, String(u!.maxRssBytes));
    assert.equal(u!.reqMemBytes, 400 * 2 ** 20);
    assert.equal(u!.allocCpus, 2);
    assert.equal(u!.timelimitS, 180);
    assert.ok(u!.elapsedS! >= 4 && u!.elapsedS! < 30, String(u!.elapsedS));
    // seff's figure from sacct's own fields: TotalCPU / (Elapsed x AllocCPUS)
    const [job, batch] = (await slurmCommand([
      "sacct",
      "-j",
      id,
      "--parsable2",
      "--noheader",
      "-o",
      "JobID,Elapsed,TotalCPU,AllocCPUS,MaxRSS",
    ])).trim().split("\n").map((l) => l.split("|"));
    process.stderr.write(`live sacct of the probe: ${JSON.stringify([job, batch])}\n`);
    assert.equal(u!.totalCpuS, parseCpuTime(job![2]!));
    assert.equal(u!.elapsedS, parseElapsed(job![1]!));
    assert.equal(u!.maxRssBytes, parseMemory(batch![4]!));
    assert.equal(u!.cpuEfficiency, u!.totalCpuS! / (u!.elapsedS! * 2));
    // one CPU of two busy: about a half — less when jobacct_gather/linux misses the last samples of a short
    // job, a little more since Elapsed is cut to whole seconds
    assert.ok(u!.cpuEfficiency! > 0.05 && u!.cpuEfficiency! <= 0.7, String(u!.cpuEfficiency));
  },
);

liveIt("measure --wait blocks through the cycle and exits with the verdict", 240_000, async () => {
  const { repo, shas } = makeRepo([bench("10", "2"), bench("9", "2")]);
  const { r } = await measure(repo, shas[0]!, shas[1]!, "r2-measure-wait", "--wait", "--poll", "2", "--json");
  assert.equal(r.exitCode, 10, r.stderr);
  assert.equal(JSON.parse(r.stdout).verdict, "reject");
  assert.match(r.stderr, /parked on job\(s\) \d+, \d+ behind wake job \d+; waiting for the verdict/);
});

liveIt(
  "cancel of a parked run: its evals and wake leave squeue; show, resume and wait say cancelled",
  180_000,
  async () => {
    const { repo, shas } = makeRepo([bench("10", "300"), bench("12", "300")]);
    const { r, runDir } = await measure(repo, shas[0]!, shas[1]!, "r3-cancel", "--json");
    assert.equal(r.exitCode, 75, r.stderr);
    const parked = JSON.parse(r.stdout);
    const ids = [...parked.pending, parked.wake_job];
    const live = await cli("runs", climb, "--live");
    assert.equal(live.exitCode, 0, live.stderr);
    assert.match(live.stdout, /^r3-cancel-\S*\s+.*parked \(live\)\s+commit 1$/m);

    // Ctrl-C on a waiting `wait` detaches with 75 and leaves every job queued or running
    const detached = await interruptedWait(runDir);
    assert.equal(detached.code, 75, detached.stderr);
    assert.match(detached.stderr, /detached: .*come back with "outerloop wait /);
    const still = await queued();
    assert.ok(ids.every((id) => still.has(id)), "wait's Ctrl-C cancels nothing");

    const c = await cli("cancel", runDir, "--json");
    assert.equal(c.exitCode, 0, c.stderr);
    const out = JSON.parse(c.stdout);
    assert.deepEqual([...out.jobs].sort(), [...ids].sort(), "both evals and the wake, in one scancel");
    await waitFor("the run's jobs gone from squeue", queued, (q) => ids.every((id) => !q.has(id)), 60_000, 500);

    const shown = JSON.parse((await cli("show", runDir, "--json")).stdout);
    assert.equal(shown.cancelled.cancelled_at, out.cancelled_at);
    for (const m of shown.measures) assert.ok(["cancelled", "done"].includes(m.state), JSON.stringify(m));
    const text = await cli("show", runDir);
    assert.match(text.stdout, /^cancelled by user on .*: no verdict$/m);
    assert.doesNotMatch(text.stdout, /vanished/);
    const before = await queued();
    const resumed = await cli("resume", runDir);
    assert.equal(resumed.exitCode, 3);
    assert.match(resumed.stderr, /was cancelled by user on /);
    const after = await queued();
    assert.deepEqual([...after].filter((id) => !before.has(id)), [], "a resume of a cancelled run submits nothing");
    const waited = await cli("wait", runDir);
    assert.equal(waited.exitCode, 3);
    assert.match(waited.stderr, /cancelled by user on /);
    assert.equal(existsSync(join(runDir, "decision.json")), false);
  },
);

liveIt("a measure that failed for good: resume exits 3 and cancels the run's other jobs", 180_000, async () => {
  const { repo, shas } = makeRepo([crash, bench("10", "300")]);
  const { r, runDir } = await measure(repo, shas[0]!, shas[1]!, "r4-fail", "--json");
  assert.equal(r.exitCode, 75, r.stderr);
  const parked = JSON.parse(r.stdout);
  const jobs = evalJobs(runDir);
  const baseDir = readdirSync(runDir).find((f) => f.startsWith("eval-baseline-"))!;
  await waitFor(
    "the baseline's failure (a run failure: a candidate's would be its crash)",
    () => existsSync(join(runDir, baseDir, EVAL_FILES.exitCode)),
    Boolean,
    60_000,
    250,
  );
  // the premise: the candidate (300 s of sleep) still runs for the pass to cancel; if not, say what ended it
  if (!(await queued()).has(jobs["candidate"]!)) {
    const candDir = readdirSync(runDir).find((f) => f.startsWith("eval-candidate-"))!;
    const files = readdirSync(join(runDir, candDir)).filter((f) =>
      !f.endsWith(".sh") && statSync(join(runDir, candDir, f)).isFile()
    );
    const show = (f: string) => `${f}: ${readFileSync(join(runDir, candDir, f), "utf8").slice(-600)}`;
    assert.fail(`the candidate's job ${jobs["candidate"]} ended before the resume:\n${files.map(show).join("\n")}`);
  }
  const resumed = await cli("resume", runDir);
  assert.equal(resumed.exitCode, 3, resumed.stderr);
  assert.match(resumed.stderr, /measure baseline \(job \d+(_\d+)?\): Eval command exited with code 1/);
  // the wake (afternotok on the evals: fail fast) may start at the baseline's failure and make the pass that
  // cancels the candidate first (the wake itself is then not among the jobs it cancels); seen with 4 files at a time
  const wakeLog = existsSync(join(runDir, "wake.out")) ? readFileSync(join(runDir, "wake.out"), "utf8") : "";
  assert.match(
    `${resumed.stderr}\n${wakeLog}`,
    /cancelled the run's (2|1) other queued or running job\(s\)/,
    `neither resume nor the wake cancelled the others:\n${resumed.stderr}\n${wakeLog}`,
  );
  if (!/cancelled the run's/.test(wakeLog)) {
    assert.match(resumed.stderr, /cancelled the run's 2 other queued or running job\(s\)/);
  }
  await waitFor(
    "the candidate and the wake gone from squeue",
    queued,
    (q) => !q.has(jobs["candidate"]!) && !q.has(parked.wake_job),
    60_000,
    500,
  );
  const failure = JSON.parse(readFileSync(join(runDir, "failure.json"), "utf8"));
  assert.equal(failure.measure, "baseline");
});

liveIt("runs prints the climb: decided, cancelled and failed runs from their files", 60_000, async () => {
  const r = await cli("runs", climb);
  assert.equal(r.exitCode, 0, r.stderr);
  process.stderr.write(`live climb, outerloop runs ${climb}:\n${r.stdout}`);
  const states = JSON.parse((await cli("runs", climb, "--json")).stdout).runs.map((x: { state: string }) => x.state);
  assert.deepEqual(states, ["decided", "decided", "decided", "cancelled", "failed"]);
});

liveIt("cancel never stops another run's job of the same name: one run tag in two climbs", 180_000, async () => {
  const { repo, shas } = makeRepo([bench("10", "300"), bench("12", "300")]);
  const start = async (climbDir: string) => {
    const runDir = join(climbDir, "r1");
    const r = await cli(
      ...testbedMeasureArgv({ repo, shas, contract: contract(), runDir }, "--run-tag", `shared-${tag}`, "--json"),
    );
    assert.equal(r.exitCode, 75, r.stderr);
    return { runDir, parked: JSON.parse(r.stdout) as { pending: string[]; wake_job: string }, stderr: r.stderr };
  };
  const a = await start(join(tempDir("live-climb-a-"), "climb"));
  const b = await start(join(tempDir("live-climb-b-"), "climb"));
  // one tag, one tree, one command: one job name per measure, so b parks on a's evals (the reference's
  // liveness hint); but they are a's jobs, running in a's run dir
  assert.deepEqual([...b.parked.pending].sort(), [...a.parked.pending].sort());
  assert.match(b.stderr, /^outerloop: warning: measure baseline waits on job \d+, which has its job name but runs /m);
  const cb = await cli("cancel", b.runDir, "--json");
  assert.equal(cb.exitCode, 0, cb.stderr);
  assert.deepEqual(JSON.parse(cb.stdout).jobs, [b.parked.wake_job], "b's wake, and nothing of a's");
  for (const id of a.parked.pending) {
    assert.match(cb.stderr, new RegExp(`^outerloop: warning: left job ${id} alone: `, "m"));
  }
  const q = await queued();
  assert.ok([...a.parked.pending, a.parked.wake_job].every((id) => q.has(id)), "a's evals and wake are still queued");
  const ca = await cli("cancel", a.runDir, "--json");
  assert.equal(ca.exitCode, 0, ca.stderr);
  assert.deepEqual([...JSON.parse(ca.stdout).jobs].sort(), [...a.parked.pending, a.parked.wake_job].sort());
});

liveIt("eval_mem and eval_cpus in the contract size every eval job: sacct and show report them", 180_000, async () => {
  const { repo, shas } = makeRepo([bench("10", "1"), bench("12", "1")]);
  const file = join(tempDir("live-watch-contract-"), "contract.json");
  const sized = {
    name: "toy",
    command: "sh bench.sh",
    metric: "score",
    direction: "maximize",
    eval_minutes: 2,
    eval_mem: "300M",
    eval_cpus: 2,
  };
  writeFileSync(file, JSON.stringify(sized));
  const runDir = join(tempDir("live-sized-"), "climb", "r1");
  const m = { repo, shas, contract: file, runDir };
  const r = await cli(...testbedMeasureArgv(m, "--run-tag", `sized-${tag}`, "--wait", "--poll", "1", "--json"));
  assert.equal(r.exitCode, 0, r.stderr);
  // the verdict can come as soon as both results are on disk, a moment before the jobs end in accounting:
  // show leaves a figure out until sacct has the job's end
  type Shown = { name: string; usage: Record<string, unknown> | null }[];
  const measures = await waitFor(
    "both jobs' figures in show",
    async () => {
      const shown = await cli("show", runDir, "--json");
      assert.equal(shown.exitCode, 0, shown.stderr);
      return JSON.parse(shown.stdout).measures as Shown;
    },
    (ms) => ms.every((x) => x.usage !== null),
    60_000,
    500,
  );
  assert.equal(measures.length, 2);
  for (const x of measures) {
    assert.equal(x.usage?.["req_mem_bytes"], 300 * 2 ** 20, JSON.stringify(x));
    assert.equal(x.usage?.["alloc_cpus"], 2, JSON.stringify(x));
  }
  assert.match((await cli("show", runDir)).stdout, /^baseline\s+\d+\s+\ds\s+2m00s\s+\S* ?\S*\s+300 MiB\s+2\s+\d+%$/m);
});
