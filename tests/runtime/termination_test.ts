import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn as nodeSpawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { alive } from "../helpers/proc.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * Runs `fixture` (an outerloop-like process that starts a job with a child of
 * its own) under this runtime, and waits until the job has recorded its pid
 * and its child's.
 */
async function startedFixture(fixture: string, ...extra: string[]) {
  const pidFile = join(tempDir("term-"), "pids");
  const [cmd, ...args] = selfRunArgv(join(import.meta.dirname!, "..", "fixtures", fixture));
  const parent = nodeSpawn(cmd!, [...args, pidFile, ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  parent.stderr!.on("data", (d) => (stderr += String(d)));
  const exited = new Promise<number | string | null>((r) => parent.on("exit", (code, sig) => r(sig ?? code)));
  const [job, grandchild] = await waitFor(
    "the job to record its pids",
    () => existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim().split(" ").map(Number) : [],
    (pids) => pids.length === 2,
  );
  return { parent, exited, job, grandchild, stderr: () => stderr };
}

describe("a terminated outerloop process", () => {
  it("kills the process group of the job it was running", { timeout: 20_000 }, async () => {
    const { parent, exited, job, grandchild } = await startedFixture("spawn_and_wait.ts");
    assert.ok(alive(job!) && alive(grandchild!), "the job should be running before the TERM");
    parent.kill("SIGTERM");
    assert.equal(await exited, "SIGTERM");
    await waitFor("the job's group to die", () => alive(job!) || alive(grandchild!), (any) => !any, 5000);
  });

  it("stops its job but leaves the exit to a command that handles interrupts itself", { timeout: 20_000 }, async () => {
    const { parent, exited, job, grandchild } = await startedFixture("interrupt_and_wait.ts");
    // by pid: Deno's child.kill() reports the signal it sent as the way the child ended
    process.kill(parent.pid!, "SIGINT");
    assert.equal(await exited, 75, "it exits its own way, not of the signal");
    await waitFor("the job's group to die", () => alive(job!) || alive(grandchild!), (any) => !any, 5000);
  });

  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    it(
      `says what it was doing on ${sig}, stops its job, and still dies of the signal`,
      { timeout: 20_000 },
      async () => {
        const { parent, exited, job, grandchild, stderr } = await startedFixture("say_on_stop.ts");
        process.kill(parent.pid!, sig);
        assert.equal(await exited, sig, "a shell reports it as 128 + the signal's number (130, 143)");
        assert.equal(stderr(), `outerloop: interrupted by ${sig}: what was stopped, and how to go on\n`);
        await waitFor("the job's group to die", () => alive(job!) || alive(grandchild!), (any) => !any, 5000);
      },
    );
  }

  it("says its line on Ctrl-C while no job runs, and dies of the signal", { timeout: 20_000 }, async () => {
    const { parent, exited, stderr } = await startedFixture("say_on_stop.ts", "idle");
    process.kill(parent.pid!, "SIGINT");
    assert.equal(await exited, "SIGINT");
    assert.equal(stderr(), "outerloop: interrupted by SIGINT: what was stopped, and how to go on\n");
  });
});
