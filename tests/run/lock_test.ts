import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { acquireRunLock, GARBAGE_MS, RunLockedError, WAIT_LOG_EVERY_MS } from "../../src/run/lock.ts";
import { setLogSink } from "../../src/log.ts";
import { spawn as runChild } from "../../src/runtime/spawn.ts";
import { waitFor } from "../helpers/wait.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";

const runDir = () => tempDir("ol-lock-");
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, "lock"), "utf8")) as Record<string, unknown>;

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  const r = spawnSync("sh", ["-c", "exit 0"]);
  assert.equal(r.status, 0);
  assert.ok(r.pid);
  return r.pid;
}

function writeLock(dir: string, holder: { pid: number; host: string; acquired_at: string; token: string }): void {
  writeFileSync(join(dir, "lock"), JSON.stringify(holder));
}

describe("acquireRunLock()", () => {
  it("refuses a second acquire while the first holds the lock, and allows it after release", async () => {
    const dir = runDir();
    const first = await acquireRunLock(new RunDir(dir));
    await assert.rejects(acquireRunLock(new RunDir(dir)), (err: unknown) => {
      assert.ok(err instanceof RunLockedError);
      assert.equal(err.name, "RunLockedError");
      assert.equal(err.holder?.pid, process.pid);
      assert.match(err.message, new RegExp(`pid ${process.pid} on host "${hostname()}" since \\d{4}-`));
      assert.match(err.message, /remove ".*\/lock"/);
      return true;
    });
    first.release();
    const third = await acquireRunLock(new RunDir(dir));
    assert.equal(lockOf(dir)["pid"], process.pid);
    third.release();
    assert.deepEqual(readdirSync(dir), []);
  });

  it("breaks a lock whose holder on this host has exited, leaving nothing else behind", async () => {
    const dir = runDir();
    const pid = deadPid();
    writeLock(dir, { pid, host: hostname(), acquired_at: new Date().toISOString(), token: "dead" });
    const lock = await acquireRunLock(new RunDir(dir));
    assert.equal(lockOf(dir)["pid"], process.pid);
    assert.notEqual(lockOf(dir)["token"], "dead");
    assert.deepEqual(readdirSync(dir), ["lock"]);
    lock.release();
  });

  it("breaks a stale lock even when a crashed breaker left its break lock behind", async () => {
    const dir = runDir();
    const dead = { pid: deadPid(), host: hostname(), acquired_at: new Date().toISOString() };
    writeLock(dir, { ...dead, token: "dead" });
    writeFileSync(join(dir, "lock.break"), JSON.stringify({ ...dead, token: "dead-breaker" }));
    const lock = await acquireRunLock(new RunDir(dir));
    assert.equal(lockOf(dir)["pid"], process.pid);
    assert.deepEqual(readdirSync(dir), ["lock"]);
    lock.release();
  });

  it("respects a live holder's lock, on this host or another, until it is older than staleMs", async () => {
    const dir = runDir();
    const child = spawn("sh", ["-c", "read _"], { stdio: ["pipe", "ignore", "ignore"] });
    try {
      const t0 = Date.parse("2030-01-01T00:00:00Z");
      writeLock(dir, { pid: child.pid!, host: hostname(), acquired_at: new Date(t0).toISOString(), token: "live" });
      await assert.rejects(acquireRunLock(new RunDir(dir), { now: () => t0 + 1000 }), RunLockedError);
      writeLock(dir, { pid: deadPid(), host: "elsewhere", acquired_at: new Date(t0).toISOString(), token: "far" });
      await assert.rejects(
        acquireRunLock(new RunDir(dir), { now: () => t0 + 1000, staleMs: 5000 }),
        /host "elsewhere"/,
      );
      assert.equal(lockOf(dir)["token"], "far");
      const lock = await acquireRunLock(new RunDir(dir), { now: () => t0 + 6000, staleMs: 5000 });
      assert.equal(lockOf(dir)["pid"], process.pid);
      lock.release();
    } finally {
      child.stdin.end();
    }
  });

  it("respects an empty lock (one being written) until its file is older than staleMs or GARBAGE_MS", async () => {
    const dir = runDir();
    writeFileSync(join(dir, "lock"), "");
    await assert.rejects(acquireRunLock(new RunDir(dir)), (err: unknown) => {
      assert.ok(err instanceof RunLockedError);
      assert.equal(err.holder, null);
      assert.match(err.message, /locked by an empty lock file/);
      return true;
    });
    const lock = await acquireRunLock(new RunDir(dir), { now: () => Date.now() + 10_000, staleMs: 5000 });
    assert.equal(lockOf(dir)["pid"], process.pid);
    lock.release();
  });

  it("breaks a garbage or empty lock file older than GARBAGE_MS at once, whatever staleMs, and says so", async () => {
    for (const content of ["", "\u0000\u0000garbage{", '{"pid": "x"}']) {
      const dir = runDir();
      writeFileSync(join(dir, "lock"), content);
      const old = Date.now() / 1000 - 60;
      utimesSync(join(dir, "lock"), old, old);
      const lines: string[] = [];
      const restore = setLogSink((l) => lines.push(l));
      try {
        const lock = await acquireRunLock(new RunDir(dir), { staleMs: Number.POSITIVE_INFINITY });
        assert.equal(lockOf(dir)["pid"], process.pid);
        lock.release();
      } finally {
        restore();
      }
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0]!,
        /warning: breaking the run lock .*\/lock: (an empty lock file|a lock file that holds no lock record)/,
      );
      assert.ok(!lines[0]!.includes("\u0000"), lines[0]);
      assert.deepEqual(readdirSync(dir), []);
    }
  });

  it("waits out a fresh empty lock (being written) and breaks it once it is GARBAGE_MS old", async () => {
    const dir = runDir();
    writeFileSync(join(dir, "lock"), "");
    let t = Date.now();
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    try {
      const lock = await acquireRunLock(new RunDir(dir), {
        staleMs: Number.POSITIVE_INFINITY,
        waitMs: 120_000,
        now: () => t,
        sleep: async (ms) => void (t += ms),
      });
      assert.equal(lockOf(dir)["pid"], process.pid);
      lock.release();
    } finally {
      restore();
    }
    assert.match(lines[0]!, /waiting for the run lock .*: held by an empty lock file/);
    assert.match(lines.at(-1)!, /breaking the run lock/);
  });

  it("says who holds the lock while it waits: once at the start, then every WAIT_LOG_EVERY_MS", async () => {
    const dir = runDir();
    writeLock(dir, { pid: process.pid, host: hostname(), acquired_at: "2030-01-01T00:00:00.000Z", token: "live" });
    let t = Date.parse("2030-01-01T00:00:01Z");
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    try {
      await assert.rejects(
        acquireRunLock(new RunDir(dir), { waitMs: 70_000, now: () => t, sleep: async (ms) => void (t += ms) }),
        RunLockedError,
      );
    } finally {
      restore();
    }
    assert.equal(lines.length, Math.ceil(70_000 / WAIT_LOG_EVERY_MS), lines.join("\n"));
    for (const l of lines) {
      assert.match(l, new RegExp(`held by pid ${process.pid} on host "${hostname()}" since 2030-01-01T00:00:00.000Z$`));
    }
    assert.match(lines[0]!, /up to 70 s more/);
    assert.equal(lockOf(dir)["token"], "live");
  });

  it("names what a young garbage lock holds, escaped, when it gives up", async () => {
    const dir = runDir();
    writeFileSync(join(dir, "lock"), "\u001b[2Jnot a lock\u009b");
    await assert.rejects(acquireRunLock(new RunDir(dir)), (err: unknown) => {
      assert.ok(err instanceof RunLockedError);
      assert.match(err.message, /locked by a lock file that holds no lock record \("\\u001b\[2Jnot a lock\\x9b"\)/);
      return true;
    });
    assert.ok(GARBAGE_MS <= 10_000);
  });

  it("keeps a dead holder's lock while a child process group it started still runs, and breaks it after", async () => {
    const dir = runDir();
    writeLock(dir, { pid: deadPid(), host: hostname(), acquired_at: new Date().toISOString(), token: "dead" });
    const orphan = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const gone = new Promise((r) => orphan.on("exit", r));
    writeFileSync(join(dir, "lock.children"), JSON.stringify({ token: "dead", groups: [orphan.pid] }));
    await assert.rejects(acquireRunLock(new RunDir(dir)), (err: unknown) => {
      assert.ok(err instanceof RunLockedError);
      assert.match(
        err.message,
        new RegExp(`which has exited while its child process group ${orphan.pid} .* still runs`),
      );
      return true;
    });
    process.kill(-orphan.pid!, "SIGKILL");
    await gone;
    const lock = await acquireRunLock(new RunDir(dir));
    assert.equal(lockOf(dir)["pid"], process.pid);
    assert.deepEqual(readdirSync(dir), ["lock"], "the dead holder's children file went with its lock");
    lock.release();
  });

  it("records the process groups of the children it starts while it holds the lock", async () => {
    const dir = runDir();
    const lock = await acquireRunLock(new RunDir(dir));
    const token = lockOf(dir)["token"];
    const pidFile = join(dir, "child.pid");
    const child = runChild({ argv: ["sh", "-c", `echo $$ > ${pidFile}; sleep 30`], timeoutMs: 20_000 });
    const pid = Number(
      await waitFor("the child", () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8") : ""), Boolean),
    );
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "lock.children"), "utf8")), { token, groups: [pid] });
    process.kill(-pid, "SIGKILL");
    await child;
    assert.equal(existsSync(join(dir, "lock.children")), false);
    lock.release();
    assert.deepEqual(readdirSync(dir), ["child.pid"]);
  });

  it("waits up to waitMs for a live holder to release", async () => {
    const dir = runDir();
    const first = await acquireRunLock(new RunDir(dir));
    const second = acquireRunLock(new RunDir(dir), { waitMs: 10_000 });
    setTimeout(() => first.release(), 100);
    const lock = await second;
    assert.equal(lockOf(dir)["pid"], process.pid);
    lock.release();
  });

  it("release() of a lock that was broken and retaken leaves the new holder's lock", async () => {
    const dir = runDir();
    const lock = await acquireRunLock(new RunDir(dir));
    writeLock(dir, { pid: process.pid, host: hostname(), acquired_at: new Date().toISOString(), token: "newer" });
    lock.release();
    assert.equal(lockOf(dir)["token"], "newer");
  });
});

// Contender processes: each says "ready", waits for "go", tries once, says
// "won" or "locked", and holds on (a winner keeps its lock) until stdin closes.
const contender = `
import { createInterface } from "node:readline";
import { acquireRunLock, RunLockedError } from ${
  JSON.stringify(pathToFileURL(join(import.meta.dirname!, "../../src/run/lock.ts")).href)
};
import { RunDir } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname!, "../../src/rundir/run_dir.ts")).href)};
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
console.log("ready");
await lines.next();
try {
  await acquireRunLock(new RunDir(process.argv[process.argv.length - 1]));
  console.log("won");
} catch (err) {
  console.log(err instanceof RunLockedError ? "locked" : "error " + String(err));
}
await lines.next();
`;

async function race(dir: string, n: number): Promise<string[]> {
  const script = join(tempDir("ol-contender-"), "contender.ts");
  writeFileSync(script, contender);
  const [cmd, ...args] = selfRunArgv(script);
  const kids = Array.from({ length: n }, () => spawn(cmd!, [...args, dir], { stdio: ["pipe", "pipe", "inherit"] }));
  const readers = kids.map((k) => createInterface({ input: k.stdout! })[Symbol.asyncIterator]());
  try {
    for (const r of readers) assert.equal((await r.next()).value, "ready");
    for (const k of kids) k.stdin!.write("go\n");
    return await Promise.all(readers.map(async (r) => String((await r.next()).value)));
  } finally {
    for (const k of kids) k.stdin!.end();
    await Promise.all(kids.map((k) => new Promise((res) => k.exitCode !== null ? res(null) : k.on("exit", res))));
  }
}

describe("acquireRunLock() under contention", () => {
  it("lets exactly one of 20 simultaneous processes take a free lock", async () => {
    const results = await race(runDir(), 20);
    assert.equal(results.filter((r) => r === "won").length, 1, results.join(","));
    assert.equal(results.filter((r) => r === "locked").length, 19, results.join(","));
  });

  it("lets exactly one of 20 simultaneous processes break a dead holder's lock", async () => {
    const dir = runDir();
    writeLock(dir, { pid: deadPid(), host: hostname(), acquired_at: new Date().toISOString(), token: "dead" });
    const results = await race(dir, 20);
    assert.equal(results.filter((r) => r === "won").length, 1, results.join(","));
    assert.equal(results.filter((r) => r === "locked").length, 19, results.join(","));
  });
});
