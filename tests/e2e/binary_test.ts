import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { VERSION } from "../../src/version.ts";
import { ensureBinary } from "../helpers/binary.ts";

/**
 * The shipped binary in an emptied environment: no Deno, Bun or node_modules
 * reachable, a fresh HOME, and a working directory holding a `.env` and a
 * `bunfig.toml` that would change its behaviour if it read them.
 */
describe("the compiled binary", () => {
  let work = "";
  let binary = "";
  let env: Record<string, string> = {};

  before(async () => {
    const built = await ensureBinary();
    work = tempDir("e2e-binary-");
    binary = join(work, "outerloop");
    copyFileSync(built, binary);
    // a PATH with a shell and env(1) only — no deno, bun or node
    const bin = join(work, "bin");
    mkdirSync(bin);
    for (const tool of ["sh", "env"]) {
      symlinkSync(`/usr/bin/${tool}`.replace("/usr/bin/sh", "/bin/sh"), join(bin, tool));
    }
    const home = join(work, "home");
    mkdirSync(home);
    env = { PATH: bin, HOME: home };
    writeFileSync(join(work, ".env"), "OUTERLOOP_DOTENV_CANARY=read\nAUTORESEARCH_COMPUTE=slurm\n");
    writeFileSync(
      join(work, "preload.ts"),
      `require("fs").writeFileSync(${JSON.stringify(join(work, "bunfig-was-read"))}, "1");\n`,
    );
    writeFileSync(join(work, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  });

  const run = (...args: string[]) => spawn({ argv: [binary, ...args], env, cwd: work, timeoutMs: 60_000 });

  it("prints its version", async () => {
    const r = await run("--version");
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION);
  });

  it("runs a local job without Deno, Bun or node_modules, reading neither .env nor bunfig.toml", async () => {
    const out = join(work, "job.log");
    const r = await run(
      "submit",
      "--compute",
      "local",
      "--job-name",
      "e2e",
      "--command",
      "env",
      "--output",
      out,
      "--json",
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.ok(Number(JSON.parse(r.stdout).job_id) >= 9_000_000_000, r.stdout);
    const jobEnv = readFileSync(out, "utf8");
    assert.ok(!jobEnv.includes("OUTERLOOP_DOTENV_CANARY"), "the binary loaded .env");
    assert.equal(existsSync(join(work, "bunfig-was-read")), false, "the binary loaded bunfig.toml");
  });

  it("prints the reference's argv on a dry run", async () => {
    const r = await run(
      "submit",
      "--job-name",
      "j",
      "--account",
      "a",
      "--time",
      "5",
      "--command",
      "echo hi",
      "--dry-run",
      "--json",
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      argv: [
        "sbatch",
        "--parsable",
        "--job-name=j",
        "--account=a",
        "--time=5",
        "--cpus-per-task=1",
        "--mem=2G",
        "--output=/dev/null",
        "--wrap=echo hi",
      ],
    });
  });

  it("answers a bad flag with one line on stderr and exit 2", async () => {
    const r = await run("submit", "--job-name", "j", "--command", "x", "--acount", "a");
    assert.equal(r.exitCode, 2);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /Unknown option "--acount"/);
  });

  it("writes plain help into a pipe whatever TERM says, and refuses flags citty alone would pass", async () => {
    for (const args of [["--help"], ["measure", "--help"], ["calibrate", "--help"]]) {
      const r = await spawn({
        argv: [binary, ...args],
        env: { ...env, TERM: "xterm-256color", FORCE_COLOR: "1" },
        cwd: work,
        timeoutMs: 60_000,
      });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, /^Usage: outerloop /m);
      // deno-lint-ignore no-control-regex -- escape codes are what must not appear
      assert.doesNotMatch(r.stdout, /\u001b/);
    }
    const r = await run("measure", "--jsn", "--bogus=3");
    assert.equal(r.exitCode, 2);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      'outerloop: error: Unknown option "--jsn" for "outerloop measure": did you mean "--json"? see "outerloop measure --help"\n',
    );
  });

  it("answers a missing scheduler with exit 4 naming the command", async () => {
    const r = await run("status", "5", "--compute", "slurm");
    assert.equal(r.exitCode, 4);
    assert.match(r.stderr, /sacct did not run: Command not found: "sacct"/);
  });
});
