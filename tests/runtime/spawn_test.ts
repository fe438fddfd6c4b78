import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { alive } from "../helpers/proc.ts";
import { waitFor } from "../helpers/wait.ts";
import { CommandNotFoundError, spawn } from "../../src/runtime/spawn.ts";

describe("spawn()", () => {
  it("captures stdout and stderr apart with the exit code", async () => {
    const r = await spawn({ argv: ["sh", "-c", "echo out; echo err >&2; exit 3"] });
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, "out\n");
    assert.equal(r.stderr, "err\n");
    assert.equal(r.timedOut, false);
  });

  it("merges stdout and stderr in the order written", async () => {
    const script = "for i in 1 2 3 4 5; do echo o$i; echo e$i >&2; done";
    const r = await spawn({ argv: ["sh", "-c", script], output: "combined" });
    assert.equal(r.stdout, "o1\ne1\no2\ne2\no3\ne3\no4\ne4\no5\ne5\n");
  });

  it("writes merged output to a file", async () => {
    const dir = tempDir("spawn-");
    const file = join(dir, "out.log");
    const r = await spawn({ argv: ["sh", "-c", "echo a; echo b >&2"], output: { file } });
    assert.equal(r.exitCode, 0);
    assert.equal(readFileSync(file, "utf8"), "a\nb\n");
  });

  it("passes exactly the given environment", async () => {
    const r = await spawn({ argv: ["/usr/bin/env"], env: { ONLY: "this", PATH: "/usr/bin:/bin" } });
    assert.deepEqual(r.stdout.trim().split("\n").sort(), ["ONLY=this", "PATH=/usr/bin:/bin"]);
  });

  it("runs in the given directory", async () => {
    const dir = tempDir("spawn-cwd-");
    const r = await spawn({ argv: ["pwd"], cwd: dir });
    assert.equal(r.stdout.trim(), dir);
  });

  it("names a command that cannot be found", async () => {
    await assert.rejects(
      spawn({ argv: ["no-such-program-xyz"], env: { PATH: "/usr/bin:/bin" } }),
      (err: unknown) => err instanceof CommandNotFoundError && err.message.includes('"no-such-program-xyz"'),
    );
  });

  it("kills the whole process group at the walltime, background grandchild included", async () => {
    const r = await spawn({
      argv: ["sh", "-c", "sleep 60 & echo $!; wait"],
      output: "combined",
      timeoutMs: 300,
      graceMs: 300,
    });
    assert.equal(r.timedOut, true);
    const grandchild = Number(r.stdout.trim());
    assert.ok(grandchild > 0, `expected a pid, got ${JSON.stringify(r.stdout)}`);
    // the group was signalled; the kernel finishes tearing the process down just after its fds close
    await waitFor(`grandchild ${grandchild} to die`, () => alive(grandchild), (a) => !a, 2000);
  });

  it("sends KILL after the grace when TERM is trapped", async () => {
    const r = await spawn({
      argv: ["sh", "-c", "trap '' TERM; echo ready; sleep 60"],
      output: "combined",
      timeoutMs: 300,
      graceMs: 200,
    });
    assert.equal(r.timedOut, true);
    assert.equal(r.signal, "SIGKILL");
  });

  it("gives up reading output that an escaped child holds open", async () => {
    const dir = tempDir("spawn-escape-");
    const pidFile = join(dir, "pid");
    // setsid puts the sleeper outside the group; it keeps the pipe open
    const r = await spawn({
      argv: ["sh", "-c", `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' & sleep 60`],
      output: "combined",
      timeoutMs: 300,
      graceMs: 100,
      drainMs: 300,
    });
    assert.equal(r.timedOut, true);
    assert.equal(r.drainAbandoned, true);
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
      } catch { /* gone */ }
    }
  });
});
