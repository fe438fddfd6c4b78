import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ARRAY_FILES, markArrayJob, readArrayJob, readArrayJobs, writeArrayJob } from "../../src/dispatch/array_job.ts";
import { tempDir } from "../helpers/temp.ts";

/** A run dir with `n` unit dirs, each with a job script that says which it is. */
function units(n: number): { runDir: string; scripts: string[] } {
  const runDir = tempDir("array-job-");
  const scripts = Array.from({ length: n }, (_, i) => {
    const dir = join(runDir, `eval-m${i}`);
    mkdirSync(dir);
    const script = join(dir, "job.sh");
    writeFileSync(script, `echo "unit ${i} ran"\necho "unit ${i} err" >&2\nexit ${i}\n`);
    return script;
  });
  return { runDir, scripts };
}

/** Runs the array's script as task `t` would, with Slurm's two variables. */
function runTask(script: string, t: string) {
  return spawnSync("sh", [script], {
    env: { PATH: "/usr/bin:/bin", SLURM_ARRAY_TASK_ID: t, SLURM_ARRAY_JOB_ID: "77" },
    encoding: "utf8",
  });
}

describe("writeArrayJob()", () => {
  it("names the array dir by its manifest's hash and writes one job script per line, task 0 first", () => {
    const { runDir, scripts } = units(3);
    const a = writeArrayJob(runDir, scripts);
    assert.match(a.dir, /\/array-[0-9a-f]{40}$/);
    assert.equal(a.dir, join(runDir, `array-${a.hash}`));
    assert.equal(readFileSync(join(a.dir, ARRAY_FILES.manifest), "utf8"), scripts.map((s) => `${s}\n`).join(""));
    assert.deepEqual(a.scripts, scripts);
    assert.equal(a.submitted, null);
    // the same units again are the same array: a pass that died before its sbatch finds the dir it wrote
    assert.equal(writeArrayJob(runDir, scripts).dir, a.dir);
    assert.notEqual(writeArrayJob(runDir, scripts.slice(1)).dir, a.dir);
  });

  it("keeps an array's recorded id when the same manifest is written again", () => {
    const { runDir, scripts } = units(2);
    markArrayJob(writeArrayJob(runDir, scripts), "4242");
    assert.equal(writeArrayJob(runDir, scripts).submitted, "4242");
    assert.deepEqual(readArrayJobs(runDir).map((a) => a.submitted), ["4242"]);
  });

  it("refuses no scripts, a relative path or one with a newline", () => {
    const { runDir } = units(0);
    assert.throws(() => writeArrayJob(runDir, []), TypeError);
    assert.throws(() => writeArrayJob(runDir, ["eval-x/job.sh"]), TypeError);
    assert.throws(() => writeArrayJob(runDir, ["/a\n/b"]), TypeError);
  });
});

describe("an array's job script", () => {
  it("runs task T's line of the manifest, its output in the slurm.out beside that script, and its exit code", () => {
    const { runDir, scripts } = units(3);
    const a = writeArrayJob(runDir, scripts);
    const r = runTask(join(a.dir, ARRAY_FILES.script), "2");
    assert.equal(r.status, 2, r.stderr);
    const log = readFileSync(join(runDir, "eval-m2", "slurm.out"), "utf8");
    assert.match(log, /^outerloop-array: task 77_2 \(the scheduler's log: .*\/task-2\.out\)$/m);
    assert.match(log, /^unit 2 ran$/m);
    assert.match(log, /^unit 2 err$/m);
    assert.equal(existsSync(join(runDir, "eval-m0", "slurm.out")), false, "only its own unit ran");
    assert.equal(runTask(join(a.dir, ARRAY_FILES.script), "0").status, 0);
  });

  it("under Grid Engine finds its line from SGE_TASK_ID (1-based: GE task 3 is task 2) and writes task-2.out itself", () => {
    const { runDir, scripts } = units(3);
    const a = writeArrayJob(runDir, scripts);
    const r = spawnSync("sh", [join(a.dir, ARRAY_FILES.script)], {
      env: { PATH: "/usr/bin:/bin", SGE_TASK_ID: "3", JOB_ID: "88" },
      encoding: "utf8",
    });
    assert.equal(r.status, 2, r.stderr);
    const log = readFileSync(join(runDir, "eval-m2", "slurm.out"), "utf8");
    assert.match(log, /^outerloop-array: task 88_2 \(the scheduler's log: .*\/task-2\.out\)$/m);
    assert.match(log, /^unit 2 ran$/m);
    assert.equal(existsSync(join(a.dir, "task-2.out")), true);
    assert.equal(existsSync(join(runDir, "eval-m1", "slurm.out")), false);
  });

  it("exits 125 on a task with no line, and refuses to run outside an array", () => {
    const { runDir, scripts } = units(1);
    const script = join(writeArrayJob(runDir, scripts).dir, ARRAY_FILES.script);
    const missing = runTask(script, "5");
    assert.equal(missing.status, 125);
    assert.match(missing.stderr, /no line 6 in .*manifest/);
    const bare = spawnSync("sh", [script], { env: { PATH: "/usr/bin:/bin" }, encoding: "utf8" });
    assert.notEqual(bare.status, 0);
    assert.match(bare.stderr, /not an array task/);
  });

  it("runs under a path with spaces and quotes", () => {
    const base = join(tempDir("array-job-"), "it's a dir");
    mkdirSync(join(base, "eval-m0"), { recursive: true });
    const script = join(base, "eval-m0", "job.sh");
    writeFileSync(script, "echo fine\n");
    const a = writeArrayJob(base, [script]);
    assert.equal(runTask(join(a.dir, ARRAY_FILES.script), "0").status, 0);
    assert.match(readFileSync(join(base, "eval-m0", "slurm.out"), "utf8"), /^fine$/m);
    assert.equal(execFileSync("sh", ["-n", join(a.dir, ARRAY_FILES.script)], { encoding: "utf8" }), "");
  });
});

describe("readArrayJob()", () => {
  it("ignores a dir whose manifest does not match its name (a write cut short) or is missing", () => {
    const { runDir, scripts } = units(2);
    const a = writeArrayJob(runDir, scripts);
    writeFileSync(join(a.dir, ARRAY_FILES.manifest), `${scripts[0]}\n`);
    assert.equal(readArrayJob(a.dir), null);
    mkdirSync(join(runDir, `array-${"0".repeat(40)}`));
    assert.deepEqual(readArrayJobs(runDir), []);
    assert.equal(readArrayJob(join(runDir, "eval-m0")), null);
  });
});
