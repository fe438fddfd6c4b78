import { attemptsOf } from "../../src/measure/attempts.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn as spawnChild } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { toArgv } from "../../src/compute/job_spec.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { evalJobSpec, MAX_EVAL_MINUTES } from "../../src/dispatch/eval_job_spec.ts";
import { DEFAULT_ALLOWED_ENV } from "../../src/dispatch/eval_script.ts";
import { pinSha } from "../../src/dispatch/pin.ts";
import { readEvalResult } from "../../src/dispatch/read_result.ts";
import { type EvalJobOptions, writeEvalJob } from "../../src/dispatch/write_eval_job.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import { waitFor } from "../helpers/wait.ts";
import { git, makeRepo } from "../helpers/git_repo.ts";
import { alive } from "../helpers/proc.ts";

const FIXTURE_BIN = resolve(import.meta.dirname ?? ".", "..", "fixtures", "bin");

/** A repo with two commits (bench.txt "one" then "two") and uncommitted junk in its working tree. */
function dirtyRepo(base: string, name = "repo"): { repo: string; first: string; second: string } {
  const { repo, shas: [first, second] } = makeRepo(
    [{ "bench.txt": "one\n" }, { "bench.txt": "two\n" }],
    join(base, name),
  );
  writeFileSync(join(repo, "bench.txt"), "dirty\n");
  writeFileSync(join(repo, "junk.txt"), "uncommitted\n");
  return { repo, first: first!, second: second! };
}

interface Setup {
  base: string;
  runDir: string;
  tmp: string;
  repo: string;
  first: string;
  second: string;
}

function setup(runDirName = "run"): Setup {
  const base = tempDir("dispatch-script-");
  const tmp = join(base, "tmp");
  mkdirSync(tmp);
  return { base, tmp, runDir: join(base, runDirName), ...dirtyRepo(base) };
}

/** The job's environment: a few host variables, one secret and one repo-redirecting variable that must not leak. */
function jobEnv(s: Setup, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${FIXTURE_BIN}:${process.env["PATH"] ?? "/usr/bin:/bin"}`,
    HOME: process.env["HOME"] ?? s.base,
    TMPDIR: s.tmp,
    API_TOKEN: "secret-value",
    GIT_DIR: join(s.base, "not-a-repo"),
    ...extra,
  };
}

async function runJob(script: string, env: Record<string, string>) {
  const r = await spawn({ argv: ["/bin/sh", script], env, output: "separate", timeoutMs: 60_000 });
  return { ...r, evalDir: dirname(script) };
}

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), "utf8");
}

function job(s: Setup, slot: string, opts: Partial<EvalJobOptions> & { command: string }): string {
  return writeEvalJob(s.runDir, slot, { repoRoot: s.repo, snapshotSha: s.first, ...opts });
}

/**
 * A job whose command records where it runs and starts a background child,
 * run as a process-group leader and awaited until that child is up: what the
 * signal tests stop.
 */
async function startedWithBackgroundChild(slot: string) {
  const s = setup();
  const script = job(s, slot, {
    command: `pwd > "$OUTERLOOP_RESULT.where"; sleep 60 & echo $! > "$OUTERLOOP_RESULT.bg"; wait`,
  });
  const child = spawnChild("/bin/sh", [script], { env: jobEnv(s), stdio: "ignore", detached: true });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const evalDir = dirname(script);
  const bg = Number(
    await waitFor(
      "the command to start",
      () => existsSync(join(evalDir, "result.json.bg")) ? read(evalDir, "result.json.bg").trim() : "",
      (text) => text !== "",
    ),
  );
  return { s, child, exited, evalDir, bg };
}

describe("eval job script", () => {
  it("runs the command in a fresh checkout of the committed tree at the sha, then removes it", async () => {
    const s = setup();
    const script = job(s, "a", {
      command:
        `pwd > "$OUTERLOOP_RESULT.where"; ls -A > "$OUTERLOOP_RESULT.ls"; git rev-parse HEAD; cat bench.txt; echo '{"score": 1.5}' > "$OUTERLOOP_RESULT"`,
    });
    const r = await runJob(script, jobEnv(s));
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0");
    assert.equal(read(r.evalDir, EVAL_FILES.stdout), `${s.first}\none\n`);
    assert.deepEqual(read(r.evalDir, "result.json.ls").trim().split("\n").sort(), [".git", "bench.txt"]);
    const where = read(r.evalDir, "result.json.where").trim();
    assert.ok(where.startsWith(s.tmp + "/"), `checkout ${where} is not under the job's TMPDIR`);
    assert.equal(existsSync(where), false, "checkout was not removed");
    assert.deepEqual(readdirSync(s.tmp), []);
    assert.equal(readEvalResult(s.runDir, "a", "score"), 1.5);
    assert.equal(read(s.repo, "bench.txt"), "dirty\n", "the user's working tree was touched");
    assert.match(read(r.evalDir, EVAL_FILES.started), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \S+\n$/);
  });

  it("checks out a sha that only refs/dispatch/<sha> still reaches after a reset and gc", async () => {
    const s = setup();
    await pinSha(s.repo, s.second);
    git(s.repo, "reset", "-q", "--hard", s.first);
    git(s.repo, "reflog", "expire", "--expire=now", "--all");
    git(s.repo, "gc", "-q", "--prune=now");
    const script = job(s, "b", {
      snapshotSha: s.second,
      command: `echo "{\\"v\\": $(wc -l < bench.txt)}"; cat bench.txt >&2`,
    });
    const r = await runJob(script, jobEnv(s));
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0", read(r.evalDir, EVAL_FILES.output));
    assert.equal(readEvalResult(s.runDir, "b", "v"), 1);
    assert.match(read(r.evalDir, EVAL_FILES.output), /^two$/m);
  });

  it("reads the last non-empty stdout line as the result and keeps stderr in output.log only", async () => {
    const s = setup();
    const script = job(s, "c", { command: `echo noise; echo '{"m": 3, "n": 4}'; echo; echo oops >&2` });
    const r = await runJob(script, jobEnv(s));
    assert.equal(readEvalResult(s.runDir, "c", "m"), 3);
    assert.equal(read(r.evalDir, EVAL_FILES.stdout), `noise\n{"m": 3, "n": 4}\n\n`);
    const out = read(r.evalDir, EVAL_FILES.output);
    for (const line of ["noise", `{"m": 3, "n": 4}`, "oops"]) assert.ok(out.includes(line + "\n"), out);
  });

  it("keeps a requeued job's earlier attempt in attempt-<n>/, naming its host, and never reads it as this one's", async () => {
    const s = setup();
    // the first attempt: stopped by a TERM once its command had written a result (a preemption, a requeue)
    const script = job(s, "rq", {
      command: `n=$(cat "$OUTERLOOP_RESULT.n" 2>/dev/null || echo 0); echo $((n + 1)) > "$OUTERLOOP_RESULT.n"; ` +
        `printf '{"m": %s}\\n' $((n + 1)) > "$OUTERLOOP_RESULT"`,
    });
    const evalDir = dirname(script);
    await runJob(script, jobEnv(s, { SLURM_JOB_ID: "266" }));
    assert.equal(readEvalResult(s.runDir, "rq", "m"), 1);
    writeFileSync(join(evalDir, EVAL_FILES.exitCode), "143"); // as the trap would have written it
    const host = read(evalDir, EVAL_FILES.started).trim().split(" ")[1];
    // the scheduler runs job 266 again
    await runJob(script, jobEnv(s, { SLURM_JOB_ID: "266", SLURM_RESTART_COUNT: "1" }));
    assert.equal(readEvalResult(s.runDir, "rq", "m"), 2, "this attempt's result");
    const first = join(evalDir, "attempt-1");
    assert.deepEqual(
      [read(first, "job"), read(first, "restart"), read(first, EVAL_FILES.exitCode), read(first, EVAL_FILES.result)],
      ["266\n", "1\n", "143", '{"m": 1}\n'],
    );
    assert.equal(
      read(first, "why"),
      `the scheduler requeued job 266 and ran it again (restart 1); its attempt on ${host} was stopped (exit 143)\n`,
    );
    assert.ok(existsSync(join(first, EVAL_FILES.started)));
    // a second requeue of an attempt its node took down (no exit code): attempt-2, in those words
    rmSync(join(evalDir, EVAL_FILES.exitCode));
    await runJob(script, jobEnv(s, { SLURM_JOB_ID: "266", SLURM_RESTART_COUNT: "2" }));
    assert.match(
      read(join(evalDir, "attempt-2"), "why"),
      /\(restart 2\); its attempt on \S+ left no exit code: its node was lost/,
    );
    assert.deepEqual(attemptsOf(evalDir).map((a) => [a.n, a.jobId, a.requeued]), [[1, "266", true], [2, "266", true]]);
    // a first run with no earlier attempt here sets nothing aside, whatever the count says
    const fresh = job(s, "rq2", { command: `echo '{"m": 5}'` });
    await runJob(fresh, jobEnv(s, { SLURM_JOB_ID: "267", SLURM_RESTART_COUNT: "1" }));
    assert.equal(existsSync(join(dirname(fresh), "attempt-1")), false);
  });

  it("drops a TMPDIR the node does not have (a login node's), checks out under the next temp dir and says so", async () => {
    const s = setup();
    const script = job(s, "tmpdir", { command: `printf '{"m": 1, "tmpdir_set": %s}\\n' "\${TMPDIR+1}\${TMPDIR-0}"` });
    const missing = join(s.base, "login-node-only");
    const r = await runJob(script, jobEnv(s, { TMPDIR: missing, TMP: s.tmp }));
    assert.equal(r.exitCode, 0, read(r.evalDir, EVAL_FILES.output));
    assert.equal(readEvalResult(s.runDir, "tmpdir", "m"), 1);
    assert.equal(readEvalResult(s.runDir, "tmpdir", "tmpdir_set"), 0, "the command gets no TMPDIR");
    assert.match(
      read(r.evalDir, EVAL_FILES.output),
      new RegExp(`TMPDIR=${missing} is not a writable directory on \\S+ `),
    );
    assert.deepEqual(readdirSync(s.tmp), [], "the checkout went under TMP, and was removed");
  });

  it("records a failing command's exit code and shows its output in the EvalError", async () => {
    const s = setup();
    const script = job(s, "d", { command: `echo '{"m": 1}'; echo boom >&2; exit 7` });
    const r = await runJob(script, jobEnv(s));
    assert.equal(r.exitCode, 7);
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "7");
    assert.throws(() => readEvalResult(s.runDir, "d", "m"), (e: Error) => {
      assert.ok(e instanceof EvalError);
      assert.match(e.message, /exited with code 7/);
      assert.match(e.message, /boom/);
      return true;
    });
    assert.deepEqual(readdirSync(s.tmp), []);
  });

  it("records setup failures as exit code 125 with the reason in output.log", async () => {
    const s = setup();
    const script = job(s, "e", { snapshotSha: "0".repeat(40), command: "echo never" });
    const r = await runJob(script, jobEnv(s));
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "125");
    assert.match(read(r.evalDir, EVAL_FILES.output), /Cannot check out 0{40}/);
    assert.equal(read(r.evalDir, EVAL_FILES.stdout), "");
    assert.deepEqual(readdirSync(s.tmp), []);
  });

  it("gives the command only the allowed variables, the measure env, OUTERLOOP_RESULT and OUTERLOOP_JOB_ID", async () => {
    const s = setup();
    const script = job(s, "f", { command: `env > "$OUTERLOOP_RESULT.env"`, extraEnv: { SEED: "42", B_VAR: "b" } });
    const r = await runJob(script, jobEnv(s, { LANG: "C", CUDA_VISIBLE_DEVICES: "1" }));
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0", read(r.evalDir, EVAL_FILES.output));
    const names = read(r.evalDir, "result.json.env").trim().split("\n").map((l) => l.split("=")[0]).sort();
    assert.deepEqual(names, [
      "B_VAR",
      "CUDA_VISIBLE_DEVICES",
      "HOME",
      "LANG",
      "OUTERLOOP_JOB_ID",
      "OUTERLOOP_RESULT",
      "PATH",
      "PWD",
      "SEED",
      "TMPDIR",
    ]);
    const env = read(r.evalDir, "result.json.env");
    assert.match(env, /^SEED=42$/m);
    assert.ok(env.includes(`OUTERLOOP_RESULT=${join(r.evalDir, EVAL_FILES.result)}\n`));
  });

  it("stops the command's whole group on TERM, records 143 and removes the checkout", async () => {
    const { s, child, exited, evalDir, bg } = await startedWithBackgroundChild("g");
    process.kill(child.pid ?? 0, "SIGTERM"); // the script alone: it must pass the TERM on
    assert.equal(await exited, 143);
    assert.equal(read(evalDir, EVAL_FILES.exitCode), "143");
    assert.equal(existsSync(read(evalDir, "result.json.where").trim()), false);
    assert.deepEqual(readdirSync(s.tmp), []);
    await waitFor("the command's background child to die", () => alive(bg), (a) => !a, 5000);
    assert.match(read(evalDir, EVAL_FILES.output), /terminated by a signal/);
  });

  it("records nothing on INT (its submitter was interrupted), stops the command and removes the checkout", async () => {
    const { s, child, exited, evalDir, bg } = await startedWithBackgroundChild("int");
    process.kill(-(child.pid ?? 0), "SIGINT"); // what a stopping outerloop sends a local job's group
    assert.equal(await exited, 130);
    assert.equal(existsSync(join(evalDir, EVAL_FILES.exitCode)), false, "an interrupt of outerloop is not a result");
    assert.equal(existsSync(read(evalDir, "result.json.where").trim()), false);
    await waitFor("the checkout to be removed", () => readdirSync(s.tmp), (d) => d.length === 0);
    await waitFor("the command's background child to die", () => alive(bg), (a) => !a, 5000);
    assert.match(read(evalDir, EVAL_FILES.output), /outerloop was interrupted: nothing recorded/);
  });

  it("records 143 on HUP as on TERM", async () => {
    const s = setup();
    const script = job(s, "hup", { command: `echo started > "$OUTERLOOP_RESULT.up"; sleep 60` });
    const child = spawnChild("/bin/sh", [script], { env: jobEnv(s), stdio: "ignore", detached: true });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    const evalDir = dirname(script);
    await waitFor("the command to start", () => existsSync(join(evalDir, "result.json.up")), Boolean);
    process.kill(child.pid ?? 0, "SIGHUP");
    assert.equal(await exited, 143);
    assert.equal(read(evalDir, EVAL_FILES.exitCode), "143");
  });

  it("KILLs a command that ignores TERM and removes the checkout even when the script is killed first", {
    timeout: 20_000,
  }, async () => {
    const s = setup();
    const script = job(s, "g2", {
      command: `trap '' TERM; pwd > "$OUTERLOOP_RESULT.where"; echo $$ > "$OUTERLOOP_RESULT.pid"; sleep 60`,
    });
    const child = spawnChild("/bin/sh", [script], { env: jobEnv(s), stdio: "ignore", detached: true });
    const exited = new Promise<string | null>((r) => child.on("exit", (_, signal) => r(signal)));
    const evalDir = dirname(script);
    const pid = Number(
      await waitFor(
        "the command to start",
        () => existsSync(join(evalDir, "result.json.pid")) ? read(evalDir, "result.json.pid").trim() : "",
        (text) => text !== "",
      ),
    );
    // what a local walltime does: TERM to the script's group, then KILL before it is done
    process.kill(-(child.pid ?? 0), "SIGTERM");
    await waitFor("exit code 143", () => existsSync(join(evalDir, EVAL_FILES.exitCode)), Boolean);
    assert.equal(read(evalDir, EVAL_FILES.exitCode), "143");
    assert.equal(alive(pid), true, "the command should have ignored the TERM");
    process.kill(-(child.pid ?? 0), "SIGKILL");
    assert.equal(await exited, "SIGKILL");
    await waitFor("the watchdog to KILL the command", () => alive(pid), (a) => !a, 15_000);
    await waitFor("the watchdog to remove the checkout", () => readdirSync(s.tmp), (left) => left.length === 0, 5_000);
  });

  it("copies the seed cache into the checkout while the committed tree wins a clash", async () => {
    const s = setup();
    const seed = join(s.base, "seed cache");
    mkdirSync(join(seed, "warm"), { recursive: true });
    writeFileSync(join(seed, "warm", "kernel.bin"), "cached\n");
    writeFileSync(join(seed, "bench.txt"), "from the cache\n");
    const script = job(s, "h", {
      seedCache: seed,
      command: `cat warm/kernel.bin bench.txt; git status --porcelain --untracked-files=no`,
    });
    const r = await runJob(script, jobEnv(s));
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0", read(r.evalDir, EVAL_FILES.output));
    assert.equal(read(r.evalDir, EVAL_FILES.stdout), "cached\none\n");
    assert.deepEqual(readdirSync(s.tmp), []);
  });

  for (const gpus of [0, 2]) {
    it(`runs the command under apptainer exec --cleanenv${gpus ? " --nv" : " without --nv"} when an image is set (gpus ${gpus})`, async () => {
      const s = setup();
      const log = join(s.base, "apptainer-argv");
      const script = job(s, "i", {
        image: "/images/bench.sif",
        gpus,
        extraEnv: { SEED: "7" },
        allowedEnv: [...DEFAULT_ALLOWED_ENV, "APPTAINER_ARGV_LOG"],
        command: `pwd > "$OUTERLOOP_RESULT.where"; env > "$OUTERLOOP_RESULT.env"; echo '{"m": 9}'`,
      });
      const r = await runJob(script, jobEnv(s, { APPTAINER_ARGV_LOG: log, CUDA_VISIBLE_DEVICES: "0,1" }));
      assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0", read(r.evalDir, EVAL_FILES.output));
      assert.equal(readEvalResult(s.runDir, "i", "m"), 9);
      const calls = readFileSync(log, "utf8").split("\n").filter((l) => l !== "");
      assert.equal(calls.length, 1);
      const argv = (calls[0] ?? "").split("\0").slice(0, -1);
      const where = read(r.evalDir, "result.json.where").trim();
      const head = [
        "exec",
        "--cleanenv",
        ...(gpus ? ["--nv"] : []),
        "--bind",
        r.evalDir,
        "--bind",
        where,
        "--pwd",
        where,
        "/images/bench.sif",
        "sh",
        "-c",
      ];
      assert.deepEqual(argv.slice(0, -1), head);
      const env = read(r.evalDir, "result.json.env");
      assert.match(env, /^SEED=7$/m);
      assert.match(env, /^CUDA_VISIBLE_DEVICES=0,1$/m);
      assert.ok(env.includes(`OUTERLOOP_RESULT=${join(r.evalDir, EVAL_FILES.result)}\n`));
      assert.doesNotMatch(env, /API_TOKEN|TMPDIR|APPTAINERENV_/);
      assert.match(env, /^PATH=\/usr\/local\/sbin:/m, "the host PATH crossed into the container");
    });
  }

  it("never runs user values as code, except the command itself", async () => {
    const nasty = `it's "x" $(touch CANARY) \`touch CANARY\`; touch CANARY\n$HOME \\ end`;
    const s = setup(`run dir 'q' "dq" $(touch CANARY) \`x\`; y`);
    const canary = join(s.base, "canary");
    const value = nasty.replaceAll("CANARY", canary);
    const repo2 = dirtyRepo(s.base, `repo 'with' "$(touch ${canary})" ;x`);
    const ran = join(s.base, "command ran");
    const metric = `a b'"$(touch ${canary})`;
    const script = writeEvalJob(s.runDir, "j", {
      repoRoot: repo2.repo,
      snapshotSha: repo2.second,
      extraEnv: { NASTY: value, B: "`touch " + canary + "`", LINE: JSON.stringify({ [metric]: 5 }) },
      command: `printf %s "$NASTY" > "$OUTERLOOP_RESULT.nasty"; touch '${
        ran.replaceAll("'", `'"'"'`)
      }'; printf '%s\\n' "$LINE"`,
    });
    const r = await runJob(script, jobEnv(s));
    assert.equal(read(r.evalDir, EVAL_FILES.exitCode), "0", read(r.evalDir, EVAL_FILES.output));
    assert.equal(existsSync(canary), false, "a user value was run as code");
    assert.equal(existsSync(ran), true, "the command did not run");
    assert.equal(read(r.evalDir, "result.json.nasty"), value);
    assert.equal(readEvalResult(s.runDir, "j", metric), 5);
    assert.deepEqual(readdirSync(s.tmp), []);
  });

  it("refuses env names that are not shell identifiers and a measure env that sets OUTERLOOP_RESULT", () => {
    const s = setup();
    assert.throws(
      () => job(s, "k", { command: "true", extraEnv: { "A;touch x": "1" } }),
      /Invalid env variable name "A;touch x"/,
    );
    assert.throws(() => job(s, "k", { command: "true", extraEnv: { "1A": "1" } }), /Invalid env variable name "1A"/);
    assert.throws(
      () => job(s, "k", { command: "true", extraEnv: { OUTERLOOP_RESULT: "/x" } }),
      /set by the eval job itself/,
    );
    assert.throws(() => job(s, "k", { command: "true", allowedEnv: ["PATH", "$(x)"] }), /Invalid allowed env name/);
    assert.throws(() => job(s, "k", { command: "true", snapshotSha: "main" }), /Invalid snapshot sha "main"/);
    assert.throws(() => job(s, "k", { command: "true", image: "--x" }), /would read as an apptainer option/);
    assert.throws(
      () =>
        writeEvalJob(join(s.base, "a,b"), "k", {
          repoRoot: s.repo,
          snapshotSha: s.first,
          command: "true",
          image: "i.sif",
        }),
      /Cannot bind the eval dir/,
    );
    assert.throws(() => job(s, "../k", { command: "true" }), /Invalid eval slot/);
  });

  it("clears an earlier attempt's exit code and result when it rewrites a job", () => {
    const s = setup();
    const script = job(s, "l", { command: "true" });
    writeFileSync(join(dirname(script), EVAL_FILES.exitCode), "0");
    writeFileSync(join(dirname(script), EVAL_FILES.result), `{"m": 1}`);
    job(s, "l", { command: "true" });
    assert.deepEqual(readdirSync(dirname(script)).sort(), [EVAL_FILES.script]);
  });
});

describe("evalJobSpec()", () => {
  it("submits the script itself with its log beside it, the memory and CPUs asked for, and the GPUs per node", () => {
    const spec = evalJobSpec("/runs/r/eval-x/job.sh", {
      jobName: "eval-r-x-0123",
      account: "acc",
      partition: "gpu",
      evalMinutes: 30,
      mem: "2G",
      cpus: 1,
      gpus: 1,
    });
    assert.deepEqual(toArgv(spec), [
      "sbatch",
      "--parsable",
      "--job-name=eval-r-x-0123",
      "--account=acc",
      "--time=30",
      "--cpus-per-task=1",
      "--mem=2G",
      "--output=/runs/r/eval-x/slurm.out",
      "--partition=gpu",
      "--gpus-per-node=1",
      "/runs/r/eval-x/job.sh",
    ]);
    const big = evalJobSpec("/j.sh", {
      jobName: "n",
      account: "a",
      partition: "",
      evalMinutes: 5,
      mem: "64G",
      cpus: 8,
      gpus: 0,
    });
    assert.deepEqual(toArgv(big).slice(4, 7), ["--time=5", "--cpus-per-task=8", "--mem=64G"]);
  });

  it("clamps the walltime to whole minutes between 1 and 7 days", () => {
    const at = (evalMinutes: number) =>
      evalJobSpec("/j.sh", {
        jobName: "n",
        account: "a",
        partition: "",
        evalMinutes,
        mem: "2G",
        cpus: 1,
        gpus: 0,
        output: "/o",
      })
        .timeMinutes;
    assert.equal(at(0), 1);
    assert.equal(at(-5), 1);
    assert.equal(at(2.2), 3);
    assert.equal(at(10 ** 9), MAX_EVAL_MINUTES);
    assert.equal(MAX_EVAL_MINUTES, 10080);
    assert.throws(() => at(Number.NaN), /Invalid eval minutes/);
  });
});
