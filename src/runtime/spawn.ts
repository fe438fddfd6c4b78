import process from "node:process";
import { collectText } from "./collect.ts";
import { isStopping, trackGroup } from "./live_groups.ts";
import { runtime } from "./runtime.ts";
import { CommandNotFoundError, type SpawnOptions, type SpawnResult } from "./spawn_types.ts";
import { which } from "./which.ts";

export { CommandNotFoundError, type SpawnOptions, type SpawnResult } from "./spawn_types.ts";

const DEFAULT_GRACE_MS = 2000;
const DEFAULT_DRAIN_MS = 10_000;

/**
 * Runs one process to completion under a walltime. In a new session (the
 * default) the walltime and our own termination reach the whole process
 * group, so a grandchild left in the background dies too.
 *
 * Merged output goes through one file descriptor (`sh -c 'exec "$@" 2>&1'`):
 * two pipes read separately would reorder lines.
 */
export async function spawn(opts: SpawnOptions): Promise<SpawnResult> {
  const rt = runtime();
  const env = opts.env ?? inheritedEnv();
  const cwd = opts.cwd ?? process.cwd();
  const [program, ...args] = opts.argv;
  if (program === undefined) throw new TypeError("spawn() needs a program in argv");
  const resolved = which(program, env["PATH"] ?? "", cwd);
  if (resolved === null) throw new CommandNotFoundError(program, env["PATH"] ?? "");

  const output = opts.output ?? "separate";
  const argv = wrapForOutput(output, [resolved, ...args]);
  const newSession = opts.newSession ?? true;
  const started = Date.now();
  const child = rt.start({
    argv,
    env,
    cwd: opts.cwd,
    stdout: typeof output === "object" ? "null" : "pipe",
    stderr: output === "separate" ? "pipe" : "null",
    newSession,
  });
  const untrack = newSession ? trackGroup(child.pid, opts.stopSignal) : () => {};

  const kill = (sig: "SIGTERM" | "SIGKILL") => {
    try {
      rt.kill(newSession ? -child.pid : child.pid, sig);
    } catch {
      // the group is already gone
    }
  };
  let timedOut = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let abandonTimer: ReturnType<typeof setTimeout> | undefined;
  let abandon: () => void = () => {};
  const abandoned = new Promise<void>((r) => (abandon = r));
  const walltime = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    kill("SIGTERM");
    killTimer = setTimeout(() => {
      kill("SIGKILL");
      abandonTimer = setTimeout(abandon, opts.drainMs ?? DEFAULT_DRAIN_MS);
    }, opts.graceMs ?? DEFAULT_GRACE_MS);
  }, opts.timeoutMs);

  try {
    const [out, err, exit] = await Promise.all([
      collectText(child.stdout, abandoned),
      collectText(child.stderr, abandoned),
      child.exited,
    ]);
    if (timedOut) kill("SIGKILL"); // a grandchild may still hold the group alive
    if (isStopping()) {
      // we were told to stop while it ran: its end is not a result, and we are about to die
      untrack();
      return await new Promise<never>(() => {});
    }
    return {
      argv: opts.argv,
      exitCode: exit.exitCode,
      signal: exit.signal,
      stdout: out.text,
      stderr: err.text,
      durationMs: Date.now() - started,
      timedOut,
      drainAbandoned: out.abandoned || err.abandoned,
    };
  } finally {
    clearTimeout(walltime);
    clearTimeout(killTimer);
    clearTimeout(abandonTimer);
    untrack();
  }
}

function wrapForOutput(output: NonNullable<SpawnOptions["output"]>, argv: string[]): string[] {
  if (output === "separate") return argv;
  if (output === "combined") return ["/bin/sh", "-c", 'exec "$@" 2>&1', "sh", ...argv];
  return ["/bin/sh", "-c", 'f=$1; shift; exec "$@" >"$f" 2>&1', "sh", output.file, ...argv];
}

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
}
