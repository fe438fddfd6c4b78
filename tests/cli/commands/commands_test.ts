import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { COMMANDS } from "../../../src/cli/app.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { VERSION } from "../../../src/version.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { makeRepo } from "../../helpers/git_repo.ts";
import { assertRefused } from "../../helpers/refused.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

describe("the CLI in-process: help and version", () => {
  it("prints the version", async () => {
    assert.deepEqual(await cli(["--version"]), { code: 0, stdout: VERSION + "\n", stderr: "", modes: [] });
  });

  it("lists every command in the root help, and asks for one with exit 2 when none is given", async () => {
    const help = await cli(["--help"]);
    assert.equal(help.code, 0);
    for (const c of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${c.name} `, "m"));
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, help.stdout);
  });

  it("prints each command's help in plain text, without colour codes, on stdout", async () => {
    for (const c of COMMANDS) {
      const r = await cli([c.name, "--help"]);
      assert.equal(r.code, 0, c.name);
      assert.match(r.stdout, new RegExp(`^outerloop ${c.name}: `));
      assert.match(r.stdout, /^Usage: outerloop /m);
      // deno-lint-ignore no-control-regex -- escape codes are what must not appear
      assert.doesNotMatch(r.stdout, /\u001b/);
    }
  });

  it("refuses an unknown command in one line", async () => {
    assertRefused(
      await cli(["mesure"]),
      /^outerloop: error: Unknown command "mesure": did you mean "measure"\? expected one of measure,/,
    );
  });
});

describe("the CLI in-process: submit, status, cancel, jobs", () => {
  it("prints the sbatch argv of a dry run and submits nothing", async () => {
    const compute = new FakeCompute();
    const r = await cli(
      ["submit", "--job-name", "j", "--account", "a", "--time", "5", "--command", "echo hi", "--dry-run", "--json"],
      { compute },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).argv, [
      "sbatch",
      "--parsable",
      "--job-name=j",
      "--account=a",
      "--time=5",
      "--cpus-per-task=1",
      "--mem=2G",
      "--output=/dev/null",
      "--wrap=echo hi",
    ]);
    assert.deepEqual(compute.calls, []);
  });

  it("submits and prints the id, on the backend AUTORESEARCH_COMPUTE names unless --compute does", async () => {
    const local = await cli(["submit", "--job-name", "j", "--command", "true"], {
      env: { AUTORESEARCH_COMPUTE: "local" },
    });
    assert.deepEqual([local.code, local.stdout, local.modes], [0, "1000\n", ["local"]]);
    const slurm = await cli(["submit", "--job-name", "j", "--command", "true", "--json", "--compute", "slurm"], {
      env: { AUTORESEARCH_COMPUTE: "local" },
    });
    assert.deepEqual([slurm.code, JSON.parse(slurm.stdout), slurm.modes], [0, { job_id: "1000" }, ["slurm"]]);
  });

  const refusals: [string, string[], RegExp][] = [
    ["both --command and --script", ["--command", "x", "--script", "s"], /exactly one of --command and --script/],
    ["--script-arg with --command", ["--command", "x", "--script-arg", "1"], /--script-arg goes with --script/],
    ["a --mem that is not a size", ["--command", "x", "--mem", "lots"], /Invalid --mem "lots": expected a size/],
    ["a --time beyond a whole number", ["--command", "x", "--time", "1.5"], /Invalid --time "1.5"/],
    [
      "an empty --compute",
      ["--command", "x", "--compute="],
      /Invalid --compute "": expected "local", "slurm" or "sge"/,
    ],
    ["an empty --command", ["--command", ""], /Invalid --command "": give a value/],
    ["--time given twice", ["--command", "x", "--time", "1", "--time", "2"], /--time is given twice/],
    [
      "a --time beyond a safe integer",
      ["--command", "x", "--time", "9".repeat(20)],
      /Invalid --time "9+": expected a whole/,
    ],
    ["a --time beyond a year", ["--command", "x", "--time", "527041"], /Invalid --time "527041": .* from 1 to 527040/],
    ["a --time of 0", ["--command", "x", "--time=0"], /Invalid --time "0"/],
    ["a --mem without digits", ["--command", "x", "--mem", "G"], /Invalid --mem "G"/],
    ["an empty --mem", ["--command", "x", "--mem="], /Invalid --mem ""/],
    ["--cpus 0", ["--command", "x", "--cpus", "0"], /Invalid --cpus "0"/],
    ["an empty --script", ["--script="], /Invalid --script "": give a value/],
    ["an extra positional argument", ["--command", "x", "extra"], /Unexpected argument "extra": "outerloop submit"/],
    ["--job-name given twice", ["--command", "x", "--job-name", "k"], /--job-name is given twice \("j" and "k"\)/],
    ["an unknown flag", ["--command", "x", "--acount", "a"], /Unknown option "--acount" for "outerloop submit"/],
    [
      "an --account with a space",
      ["--command", "x", "--account", "acct "],
      /Invalid --account "acct ": it contains white/,
    ],
    [
      "a --partition with a newline",
      ["--command", "x", "--partition", "a\nb"],
      /Invalid --partition "a\\nb": .*control/,
    ],
    ["a --qos with a space", ["--command", "x", "--qos", "a b"], /Invalid --qos "a b"/],
    [
      "an --extra that is not an option",
      ["--command", "x", "--extra", "exclusive"],
      /Invalid --extra "exclusive": expected an sbatch option/,
    ],
    [
      "an empty --extra",
      ["--command", "x", "--extra=--exclusive", "--extra="],
      /Invalid --extra "": expected an sbatch option/,
    ],
  ];
  for (const [what, flags, pattern] of refusals) {
    it(`refuses ${what} with exit 2 in one line`, async () => {
      assertRefused(await cli(["submit", "--job-name", "j", ...flags]), pattern);
    });
  }

  it("takes an --extra value that starts with -- only inline, never from the next flag", async () => {
    const submit = (...extra: string[]) =>
      cli(["submit", "--job-name", "j", "--command", "x", ...extra, "--dry-run", "--json"]);
    const r = await submit("--extra=--mail-type", "--extra", "END");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).argv.slice(-3), ["--mail-type", "END", "--wrap=x"]);
    assertRefused(await submit("--extra", "--mail-type", "--extra", "END"), /error: --extra needs a value \(ARG\)/);
  });

  it("refuses a --script that is missing or not a file when submitting, and prints it on a dry run", async () => {
    const dir = tempDir("cli-script-");
    const compute = new FakeCompute();
    assertRefused(
      await cli(["submit", "--job-name", "j", "--script", join(dir, "nope.sh")], { compute }),
      /^outerloop: error: Invalid --script ".*nope.sh": no such file$/m,
    );
    assertRefused(
      await cli(["submit", "--job-name", "j", "--script", dir], { compute }),
      /Invalid --script ".*": it is a directory, not a file/,
    );
    assert.deepEqual(compute.calls, []);
    const dry = await cli(["submit", "--job-name", "j", "--script", join(dir, "later.sh"), "--dry-run", "--json"]);
    assert.equal(dry.code, 0, dry.stderr);
  });

  it("refuses a job name with |, a control character, a leading - or over 128 bytes", async () => {
    for (const name of ["a|b", "a\u0007b", "a\nb", "-x", "x".repeat(129), "é".repeat(65), ""]) {
      assertRefused(await cli(["submit", "--job-name", name, "--command", "true"]), /Invalid --job-name/);
    }
  });

  it("gives status --json with the reason and partition of a queued job", async () => {
    const compute = new FakeCompute();
    compute.states = new Map([["42", "PENDING"], ["43", "COMPLETED"]]);
    compute.liveStates.set("42", { state: "PENDING", reason: "Priority", partition: "gpu" });
    const queued = await cli(["status", "42", "--json"], { compute });
    assert.deepEqual(JSON.parse(queued.stdout), {
      job_id: "42",
      state: "PENDING",
      elapsed_s: null,
      pending_reason: "Priority",
      partition: "gpu",
    });
    const done = await cli(["status", "43"], { compute });
    assert.equal(done.stdout, "43 COMPLETED\n");
    assertRefused(await cli(["status", "4x2"], { compute }), /Not a job id: "4x2"/);
    assertRefused(await cli(["status", "1", "2"], { compute }), /Unexpected argument "2"/);
  });

  it("lists jobs with state, reason and partition, finds one by --name, and lists --names", async () => {
    const compute = new FakeCompute();
    compute.live = new Map([["a", ["1", "2"]], ["b", ["3"]]]);
    compute.liveStates.set("3", {
      state: "RUNNING",
      reason: "None",
      partition: "cpu",
      script: "/runs/r1/eval-x/job.sh",
    });
    const all = await cli(["jobs", "--json"], { compute });
    assert.deepEqual(JSON.parse(all.stdout).jobs, [
      { job_id: "1", name: "a", state: "PENDING", reason: "", partition: "", script: null },
      { job_id: "2", name: "a", state: "PENDING", reason: "", partition: "", script: null },
      { job_id: "3", name: "b", state: "RUNNING", reason: "None", partition: "cpu", script: "/runs/r1/eval-x/job.sh" },
    ]);
    assert.deepEqual(JSON.parse((await cli(["jobs", "--name", "b", "--json"], { compute })).stdout), {
      name: "b",
      job_id: "3",
    });
    assert.deepEqual(JSON.parse((await cli(["jobs", "--name", "zz", "--json"], { compute })).stdout), {
      name: "zz",
      job_id: null,
    });
    assert.equal((await cli(["jobs", "--name", "a"], { compute })).stdout, "1\n");
    assert.equal((await cli(["jobs", "--names"], { compute })).stdout, "a\nb\n");
  });

  it("cancels idempotently and says so", async () => {
    const r = await cli(["cancel", "77", "--json"]);
    assert.deepEqual([r.code, JSON.parse(r.stdout)], [0, { job_id: "77", cancelled: true }]);
  });

  it("reports a bug (not an OuterloopError) as exit 1 with its stack", async () => {
    const compute = new FakeCompute();
    compute.status = () => Promise.reject(new TypeError("boom"));
    const r = await cli(["status", "5"], { compute });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^outerloop: error: boom\nTypeError: boom\n\s+at /);
  });
});

describe("the CLI in-process: runs", () => {
  it("show --json gives every measure's state, the wake and the verdict", async () => {
    const dir = new RunDir(join(tempDir("cli-show-"), "run"));
    writeRunRecord(dir, runRecordFixture());
    const compute = new FakeCompute();
    const parked = await cli(["resume", dir.path, "--json"], { compute });
    assert.equal(parked.code, 75, parked.stderr);
    const [baseJob, candJob] = JSON.parse(parked.stdout).pending;
    compute.live = new Map(
      compute.submitted.filter((s) => s.jobName.startsWith("eval-")).map((s, i) => [
        s.jobName,
        [String(1000 + i)],
      ]),
    );
    compute.liveStates.set("1001", { state: "RUNNING", reason: "None" });
    compute.liveStates.set("1000", { state: "PENDING", reason: "Resources" });
    const calls = compute.calls.length;
    const shown = await cli(["show", dir.path, "--json"], { compute });
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(compute.calls.slice(calls), ["squeue"], "one listing, no query per job");
    const j = JSON.parse(shown.stdout);
    assert.deepEqual(j.measures, [
      {
        name: "baseline",
        state: "pending",
        value: null,
        job_id: baseJob,
        reason: "Resources",
        why: null,
        usage: null,
        provenance: null,
        samples: null,
        attempts: [],
      },
      {
        name: "candidate",
        state: "running",
        value: null,
        job_id: candJob,
        reason: null,
        why: null,
        usage: null,
        provenance: null,
        samples: null,
        attempts: [],
      },
    ]);
    assert.equal(j.wake.job_id, "1002");
    assert.equal(j.verdict, null);
    assert.equal(j.scheduler_error, null);
    // the jobs finish: resume decides, show agrees
    for (const [i, spec] of compute.submitted.slice(0, 2).entries()) finishEvalJob(spec, { score: 10 + i });
    compute.live = new Map();
    const decided = await cli(["resume", dir.path], { compute });
    assert.equal(decided.code, 0, decided.stderr);
    assert.match(decided.stdout, /^verdict: accept$/m);
    const after = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.deepEqual(after.measures.map((m: { state: string; value: number }) => [m.state, m.value]), [
      ["done", 10],
      ["done", 11],
    ]);
    assert.equal(after.verdict, "accept");
  });

  it("measure takes --account and the GPU lane from OUTERLOOP_* and freezes them in run.json", async () => {
    const { repo } = await makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
    const contract = join(tempDir("cli-contract-"), "c.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      contract,
      JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize", gpus: 1 }),
    );
    const runDir = join(tempDir("cli-measure-"), "r1");
    const env = {
      OUTERLOOP_ACCOUNT: "acct_env",
      OUTERLOOP_PARTITION: "cpu_env",
      OUTERLOOP_GPU_PARTITION: "gpu_env",
      OUTERLOOP_GPU_ACCOUNT: "gacct_env",
    };
    const args = ["measure", "--repo", repo, "--base", "main~1", "--candidate", "main", "--contract", contract];
    const r = await cli([...args, "--run-dir", runDir, "--compute", "slurm", "--json"], { env });
    assert.equal(r.code, 75, r.stderr);
    const rec = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8"));
    assert.deepEqual([rec.account, rec.partition, rec.gpu_partition, rec.gpu_account], [
      "acct_env",
      "cpu_env",
      "gpu_env",
      "gacct_env",
    ]);
    assert.deepEqual(rec.command_line.slice(0, 2), ["/opt/bin/outerloop", "measure"]);
    // a flag wins over the environment
    const other = join(tempDir("cli-measure-"), "r2");
    const flagged = await cli([...args, "--run-dir", other, "--compute", "slurm", "--account", "acct_flag"], { env });
    assert.equal(flagged.code, 75, flagged.stderr);
    assert.equal(JSON.parse(readFileSync(join(other, "run.json"), "utf8")).account, "acct_flag");
  });

  it("measure refuses a GPU contract without a GPU lane before writing anything", async () => {
    const { repo } = await makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
    const contract = join(tempDir("cli-contract-"), "c.json");
    const { existsSync, writeFileSync } = await import("node:fs");
    writeFileSync(
      contract,
      JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize", gpus: 2 }),
    );
    const runDir = join(tempDir("cli-measure-"), "r");
    const r = await cli([
      "measure",
      "--repo",
      repo,
      "--base",
      "main~1",
      "--candidate",
      "main",
      "--contract",
      contract,
      "--run-dir",
      runDir,
      "--compute",
      "slurm",
    ]);
    assertRefused(r, /Measure baseline needs 2 GPU\(s\) but no GPU lane is configured: pass --gpu-partition/);
    assert.equal(existsSync(runDir), false);
  });
});

describe("show asks the scheduler as a pass does", () => {
  it("lists 100 pending measures with their reasons from one queue listing", async () => {
    const siblings = Array.from(
      { length: 49 },
      (_, i) => ({ name: `s${i}`, command: "sh s.sh", metric: "m", direction: "maximize" }),
    );
    const dir = new RunDir(join(tempDir("cli-show-100-"), "run"));
    writeRunRecord(dir, runRecordFixture({}, { siblings }));
    const compute = new FakeCompute();
    assert.equal((await cli(["resume", dir.path], { compute })).code, 75);
    assert.equal(compute.arrays.length, 1, "the look's 100 measures go as one job array");
    const array = compute.arrays[0]!;
    const tasks = compute.submittedIds.filter((id) => id.startsWith(`${array.id}_`));
    assert.equal(tasks.length, 100);
    compute.live = new Map([[array.spec.jobName, tasks]]);
    tasks.forEach((id) => compute.liveStates.set(id, { state: "PENDING", reason: "Priority" }));
    const calls = compute.calls.length;
    const shown = await cli(["show", dir.path, "--json"], { compute });
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(compute.calls.slice(calls), ["squeue"]);
    const measures = JSON.parse(shown.stdout).measures as { state: string; reason: string }[];
    assert.equal(measures.length, 100);
    assert.ok(measures.every((m) => m.state === "pending" && m.reason === "Priority"));
  });
});
