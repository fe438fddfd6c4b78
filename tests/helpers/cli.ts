import type { Compute } from "../../src/compute/compute.ts";
import { runCli } from "../../src/cli/run_cli.ts";
import type { CliDeps } from "../../src/cli/shared/io.ts";
import { FakeCompute } from "./fake_compute.ts";

/** What one in-process CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The backend modes the command asked for, in order. */
  readonly modes: readonly string[];
}

/** What a test can do while a command sleeps (between two polls of `wait`). */
export interface SleepContext {
  /** How many sleeps came before this one. */
  readonly count: number;
  /** The clock, after this sleep moved it on. */
  readonly now: number;
  /** Sends the command an interrupt (what Ctrl-C does). */
  interrupt(): void;
}

/** Options of `cli`. */
export interface CliOptions {
  env?: Record<string, string>;
  compute?: Compute;
  /** The clock's start, epoch ms; it moves on only by what the command sleeps. */
  now?: number;
  self?: readonly string[];
  /** Whether stderr is a terminal; default false. */
  tty?: boolean;
  /** Called at every sleep, after the clock moved on: the test changes the world between two polls. */
  onSleep?: (ms: number, ctx: SleepContext) => void | Promise<void>;
  /** Every sleep's length in ms, in order (filled in by `cli`). */
  sleeps?: number[];
}

/** The fakes `cli` runs a command with, and what it wrote so far: for a test that calls a CLI step directly. */
export function fakeCliDeps(opts: CliOptions = {}): { deps: CliDeps; run: () => Omit<CliRun, "code"> } {
  let stdout = "";
  let stderr = "";
  const modes: string[] = [];
  const compute = opts.compute ?? new FakeCompute();
  let clock = opts.now ?? Date.parse("2026-01-02T03:04:05Z");
  const handlers = new Set<() => void>();
  const sleeps = opts.sleeps ?? [];
  const deps: CliDeps = {
    io: { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) },
    env: opts.env ?? {},
    now: () => clock,
    compute: (mode) => {
      modes.push(mode);
      return compute;
    },
    self: () => opts.self ?? ["/opt/bin/outerloop"],
    sleep: async (ms) => {
      const count = sleeps.length;
      sleeps.push(ms);
      clock += ms;
      await opts.onSleep?.(ms, { count, now: clock, interrupt: () => [...handlers].forEach((h) => h()) });
    },
    onInterrupt: (fn) => {
      handlers.add(fn);
      return () => handlers.delete(fn);
    },
    stderrIsTerminal: () => opts.tty ?? false,
  };
  return { deps, run: () => ({ stdout, stderr, modes }) };
}

/**
 * Runs the CLI in this process with fakes: captured stdout and stderr, the
 * given environment (empty by default: nothing of the test runner's leaks
 * in), a clock that stands still but for what the command sleeps (sleeps
 * take no time), and `compute` for every backend mode.
 */
export async function cli(args: readonly string[], opts: CliOptions = {}): Promise<CliRun> {
  const { deps, run } = fakeCliDeps(opts);
  const code = await runCli(args, deps);
  return { code, ...run() };
}
