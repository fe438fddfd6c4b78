import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { setLogSink } from "../../src/log.ts";
import { describeStop, stopLocalPass } from "../../src/run/stop_local_pass.ts";
import { type LockHolder, tryCreate, writeChildren } from "../../src/rundir/lock_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { alive } from "../helpers/proc.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * `stopLocalPass` signals only the process groups that the lock of THIS run
 * names under its holder's token, of a live holder on this host, whose
 * leaders are still that holder's children.
 */

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, "SIGKILL");
    } catch { /* gone */ }
  }
});

/** A `sleep` leading a process group of its own (setsid), child of this test process; resolves when it has ended. */
function group(): { pid: number; ended: Promise<void> } {
  const c = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  started.push(c);
  return { pid: c.pid!, ended: new Promise((r) => c.on("exit", () => r())) };
}

function lockedRun(holder: Partial<LockHolder>, groups: readonly number[], childrenToken?: string) {
  const dir = new RunDir(join(tempDir("stop-pass-"), "r1"));
  mkdirSync(dir.path, { recursive: true });
  const h: LockHolder = {
    pid: process.pid,
    host: hostname(),
    acquiredAt: new Date().toISOString(),
    token: "t0k",
    ...holder,
  };
  assert.ok(tryCreate(dir.lock, h));
  writeChildren(dir.lock, childrenToken ?? h.token, groups);
  return { dir, h };
}

/** A clock that advances by what is slept, yielding to the event loop each time. */
function fakeTime() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms, await new Promise((r) => setTimeout(r, 1))) };
}

describe("stopLocalPass()", () => {
  it("sends INT to the holder's eval groups and returns once the holder lets go of the lock", async () => {
    const g = group();
    const { dir, h } = lockedRun({}, [g.pid]);
    void g.ended.then(() => unlinkSync(dir.lock)); // the holder: its eval ended, so it stops and lets go
    const out = await stopLocalPass(dir, { waitMs: 10_000 });
    assert.deepEqual(out, { holder: h, groups: [g.pid], released: true });
    await waitFor("the group to be gone", () => alive(g.pid), (a) => !a, 5000);
    assert.match(
      describeStop(out),
      /^stopped the eval process group \d+ of the local measure \(pid \d+\) .*stopped \(exit 3\)$/,
    );
  });

  it("KILLs a group that outlives its grace", async () => {
    const ready = join(tempDir("stop-trap-"), "ready");
    const c = spawn("sh", ["-c", `trap '' INT; : > ${ready}; sleep 60`], { detached: true, stdio: "ignore" });
    started.push(c);
    await waitFor("the INT trap to be set", () => existsSync(ready), Boolean);
    const ended = new Promise<string | null>((r) => c.on("exit", (_code, sig) => r(sig)));
    const { dir } = lockedRun({}, [c.pid!]);
    void ended.then(() => unlinkSync(dir.lock));
    const out = await stopLocalPass(dir, { waitMs: 10_000, graceMs: 300 });
    assert.equal(out.released, true);
    assert.equal(await ended, "SIGKILL");
  });

  it("leaves alone a group that is not the holder's child (a reused pid), and says the holder still runs", async () => {
    const holder = group(); // a live process standing in for the holder
    const stranger = group(); // this test's child, not the holder's
    const { dir } = lockedRun({ pid: holder.pid }, [stranger.pid]);
    const out = await stopLocalPass(dir, { waitMs: 500, ...fakeTime() });
    assert.deepEqual(out.groups, []);
    assert.equal(out.released, false);
    assert.ok(alive(stranger.pid) && alive(holder.pid));
    assert.match(describeStop(out), /was running no eval; it still holds the run and stops before its next eval/);
  });

  it("leaves alone groups recorded under another token", async () => {
    const g = group();
    const { dir } = lockedRun({}, [g.pid], "someone-else");
    const out = await stopLocalPass(dir, { waitMs: 500, ...fakeTime() });
    assert.deepEqual(out.groups, []);
    assert.ok(alive(g.pid));
  });

  it("signals nothing for a holder on another host or one that is gone", async () => {
    const g = group();
    const lines: string[] = [];
    const restore = setLogSink((l) => lines.push(l));
    const remote = await stopLocalPass(lockedRun({ host: "elsewhere.invalid" }, [g.pid]).dir).finally(restore);
    assert.deepEqual([remote.groups, remote.released], [[], false]);
    assert.match(lines.join("\n"), /another host: its processes cannot be stopped from here/);
    assert.match(describeStop(remote), /runs on host "elsewhere.invalid": it stops before its next eval/);
    const gone = await stopLocalPass(lockedRun({ pid: 2 ** 22 + 12345 }, [g.pid]).dir);
    assert.deepEqual(gone, { holder: null, groups: [], released: true });
    assert.equal(describeStop(gone), "no process of it was running");
    assert.ok(alive(g.pid));
  });
});
