/**
 * Where the docs' commands run: a home of their own holding the example
 * repository the loop examples climb (`examples/loop/make_repo.sh`: `main`
 * and proposal/1 … proposal/6) at ~/proj, its contract at ~/bench.json,
 * this checkout at ~/outerloop, an empty climb dir ~/runs, and the compiled
 * binary first on PATH. Nothing of the test's environment reaches it (no
 * SLURM_CONF): a command the docs run on the local backend says
 * `--compute local`, and one that needs a cluster is checked, not run
 * (tests/helpers/doc_blocks.ts).
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { subCommand } from "../../src/cli/app.ts";
import { parseArgs } from "../../src/cli/flags.ts";
import { ensureBinary } from "./binary.ts";
import { tempDir } from "./temp.ts";

/** The repository's root. */
export const ROOT = join(import.meta.dirname!, "..", "..");
/** The loop examples and the repository they climb. */
export const EXAMPLES = join(ROOT, "examples", "loop");

/** A prepared home for the docs' commands. */
export interface DocSandbox {
  readonly home: string;
  readonly env: Readonly<Record<string, string>>;
  readonly binary: string;
}

/**
 * The example repository (`proposals` of the six scripted ones) at `dir`,
 * built by the script the docs tell a reader to run.
 */
export async function exampleRepo(dir: string, proposals = 6): Promise<void> {
  const r = await spawn({
    argv: ["sh", join(EXAMPLES, "make_repo.sh"), dir, String(proposals)],
    env: { PATH: "/usr/bin:/bin", HOME: dirname(dir), GIT_CONFIG_NOSYSTEM: "1" },
    output: "combined",
    timeoutMs: 60_000,
  });
  if (r.exitCode !== 0) throw new Error(`make_repo.sh failed (${r.exitCode}):\n${r.stdout}`);
}

/** A fresh sandbox. */
export async function docSandbox(): Promise<DocSandbox> {
  const binary = await ensureBinary();
  const root = tempDir("docs-");
  const home = join(root, "home");
  mkdirSync(home);
  await exampleRepo(join(home, "proj"));
  copyFileSync(join(EXAMPLES, "bench.json"), join(home, "bench.json"));
  // the docs' "your clone of outerloop"
  symlinkSync(ROOT, join(home, "outerloop"));
  mkdirSync(join(home, "runs"));
  const env = {
    PATH: `${dirname(binary)}:/usr/bin:/bin`,
    HOME: home,
    LANG: "C.UTF-8",
    TMPDIR: join(root, "tmp"),
    GIT_CONFIG_NOSYSTEM: "1",
  };
  mkdirSync(env.TMPDIR);
  return { home, env, binary };
}

/** Runs `script` with `shell` (`sh -c`, or bash for a whole block) in the sandbox's home. */
export function runInSandbox(sandbox: DocSandbox, script: string, shell: "sh" | "bash" = "sh"): Promise<SpawnResult> {
  return spawn({
    argv: [shell, "-c", script],
    cwd: sandbox.home,
    env: { ...sandbox.env },
    output: "separate",
    timeoutMs: 300_000,
  });
}

/** The words of `command` as the shell reads them (quotes, `~`, variables), without running it. */
export async function shellWords(sandbox: DocSandbox, command: string): Promise<string[]> {
  const r = await spawn({
    argv: ["sh", "-c", 'eval "set -- $1"; printf "%s\\0" "$@"', "sh", command],
    cwd: sandbox.home,
    env: { ...sandbox.env },
    output: "separate",
    timeoutMs: 30_000,
  });
  if (r.exitCode !== 0) throw new Error(`the shell cannot read ${JSON.stringify(command)}: ${r.stderr}`);
  return r.stdout.split("\0").slice(0, -1);
}

/**
 * Reads `argv` (the words after `outerloop`) as the CLI does — citty's parser
 * held to our rules, then the command's own parse step (its option checks) —
 * without running the command; the message of what it refuses, or null.
 */
export async function parseProblem(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<string | null> {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith("-")) return null;
  const load = subCommand(name);
  if (load === undefined) return `no command ${JSON.stringify(name)}`;
  const command = await load();
  try {
    command.parse(parseArgs(command.meta.name, command.args, rest), env);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
