import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { alive } from "../helpers/proc.ts";
import { waitFor } from "../helpers/wait.ts";
import { InvalidJobIdError } from "../../src/compute/compute.ts";
import { LocalComputeError } from "../../src/compute/errors.ts";
import { LocalCompute } from "../../src/compute/local.ts";
import { GONE } from "../../src/compute/states.ts";

const tmp = () => tempDir("local-");
const base = { jobName: "j", account: "", partition: "", timeMinutes: 1 };

describe("LocalCompute", () => {
  it("runs a command synchronously: COMPLETED at submit, output in the spec's file", async () => {
    const dir = tmp();
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    const out = join(dir, "out.log");
    const id = await c.submit({ ...base, command: "echo one; echo two >&2; echo three", output: out });
    assert.equal(await c.status(id), "COMPLETED");
    assert.equal(readFileSync(out, "utf8"), "one\ntwo\nthree\n");
  });

  it("runs a script with its arguments and reports FAILED on a non-zero exit", async () => {
    const dir = tmp();
    const script = join(dir, "job.sh");
    writeFileSync(script, 'printf "%s|" "$@"; exit 4\n');
    const out = join(dir, "out.log");
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    const id = await c.submit({ ...base, script, scriptArgs: ["a b", "$x"], output: out });
    assert.equal(await c.status(id), "FAILED");
    assert.equal(readFileSync(out, "utf8"), "a b|$x|");
  });

  it("gives ids from 9e9 + (pid mod 10k) * 1e6 + seq", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    const a = await c.submit({ ...base, command: "true" });
    const b = await c.submit({ ...base, command: "true" });
    assert.equal(Number(a), 9_000_000_000 + (process.pid % 10_000) * 1_000_000 + 1);
    assert.equal(Number(b), Number(a) + 1);
  });

  it("passes only the allowlisted environment, never secret-named variables", async () => {
    const dir = tmp();
    const out = join(dir, "env.log");
    const c = new LocalCompute({
      env: {
        PATH: "/usr/bin:/bin",
        HOME: "/h",
        OUTERLOOP_MODE: "x",
        OUTERLOOP_API_TOKEN: "s3cret",
        GITHUB_TOKEN: "s3cret",
        EDITOR: "vi",
      },
    });
    await c.submit({ ...base, command: "env", output: out });
    const names = readFileSync(out, "utf8").trim().split("\n").map((l) => l.split("=")[0]).filter((n) =>
      n !== "PWD" && n !== "SHLVL" && n !== "_"
    );
    // OUTERLOOP_JOB_ID is the job's own id, which the local backend adds (the eval script passes it on)
    assert.deepEqual(names.sort(), ["HOME", "OUTERLOOP_JOB_ID", "OUTERLOOP_MODE", "PATH"]);
    assert.ok(!readFileSync(out, "utf8").includes("s3cret"));
  });

  it("kills the whole group at the walltime and reports TIMEOUT", async () => {
    const dir = tmp();
    const out = join(dir, "out.log");
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" }, minuteMs: 300, graceMs: 200 });
    const id = await c.submit({ ...base, command: "sleep 60 & echo $!; wait", output: out });
    assert.equal(await c.status(id), "TIMEOUT");
    const grandchild = Number(readFileSync(out, "utf8").trim());
    assert.ok(grandchild > 0);
    // the group was signalled; the kernel finishes tearing the process down just after its fds close
    await waitFor(`grandchild ${grandchild} to die`, () => alive(grandchild), (a) => !a, 2000);
  });

  it("lets a job's TERM trap run before the KILL", async () => {
    const dir = tmp();
    const marker = join(dir, "trapped");
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" }, minuteMs: 200, graceMs: 2000 });
    const id = await c.submit({ ...base, command: `trap 'echo 143 > ${marker}; exit 143' TERM; sleep 30 & wait` });
    assert.equal(await c.status(id), "TIMEOUT");
    assert.equal(readFileSync(marker, "utf8").trim(), "143");
  });

  it("persists terminal states atomically for another process to read", async () => {
    const root = tmp();
    const env = { PATH: "/usr/bin:/bin", AUTORESEARCH_ROOT: root };
    const id = await new LocalCompute({ env }).submit({ ...base, command: "exit 1" });
    assert.equal(readFileSync(join(root, "local_jobs", id), "utf8"), "FAILED");
    assert.deepEqual(readdirSync(join(root, "local_jobs")), [id]);
    // a fresh instance stands for another process
    assert.equal(await new LocalCompute({ env }).status(id), "FAILED");
    assert.deepEqual([...await new LocalCompute({ env }).statuses([id, "9999999999"])], [[id, "FAILED"]]);
  });

  it("prunes persisted states older than a day", async () => {
    const root = tmp();
    const env = { PATH: "/usr/bin:/bin", AUTORESEARCH_ROOT: root };
    const c = new LocalCompute({ env });
    const old = await c.submit({ ...base, command: "true" });
    const day = 24 * 3600;
    utimesSync(join(root, "local_jobs", old), Date.now() / 1000 - day - 60, Date.now() / 1000 - day - 60);
    const fresh = await c.submit({ ...base, command: "true" });
    assert.equal(existsSync(join(root, "local_jobs", old)), false);
    assert.equal(existsSync(join(root, "local_jobs", fresh)), true);
  });

  it("answers GONE for an unknown id and refuses non-numeric ids", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    assert.equal(await c.status("9000000001"), GONE);
    await assert.rejects(c.status("abc"), InvalidJobIdError);
    await assert.rejects(c.cancel("1;x"), InvalidJobIdError);
  });

  it("has the no-op verbs of a synchronous backend", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    assert.equal(await c.pendingReason("1"), "");
    assert.equal(await c.jobPartition("1"), "");
    assert.deepEqual(await c.activeJobNames(), []);
    assert.equal(await c.jobIdForName("x"), "");
    assert.equal((await c.activeJobs()).size, 0);
    await c.cancel("1");
  });

  it("refuses a spec with both or neither of command and script", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    await assert.rejects(c.submit({ ...base, command: "x", script: "y" }), /exactly one/);
    await assert.rejects(c.submit(base), /exactly one/);
  });

  it("fails loudly when the per-process id space is exhausted", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" }, startSeq: 999_998 });
    const last = await c.submit({ ...base, command: "true" });
    assert.equal(Number(last) % 1_000_000, 999_999);
    await assert.rejects(
      c.submit({ ...base, command: "true" }),
      (e: unknown) => e instanceof LocalComputeError && /id space exhausted/.test(e.message),
    );
  });
});
