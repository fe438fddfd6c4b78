import type { Compute } from "../../compute/compute.ts";
import type { ComputeMode } from "../../compute/mode.ts";

/** The process environment, as a command reads it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where a command writes: results on stdout, people's output and logs on stderr. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Everything a command's run step reaches outside its options: what it
 * writes, the environment, the clock, the compute backend, and how this
 * program runs itself again. The real ones come from `processDeps()`; tests
 * pass fakes and drive a command in-process.
 */
export interface CliDeps {
  readonly io: CliIo;
  readonly env: Env;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
  /** The backend of a mode; `cluster`: Slurm's `-M` (compute/cluster.ts), "" or absent for slurm.conf's own. */
  readonly compute: (mode: ComputeMode, cluster?: string) => Compute;
  /** The argv that runs this program again (what a wake job executes). */
  readonly self: () => readonly string[];
  /** Waits `ms` milliseconds, or less when `signal` aborts; never rejects (`wait` polls with it). */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Calls `fn` on SIGINT or SIGTERM until the returned remover runs, holding off the default death. */
  readonly onInterrupt: (fn: () => void) => () => void;
  /** Whether stderr is a terminal: a progress line is rewritten in place there, printed plainly elsewhere. */
  readonly stderrIsTerminal: () => boolean;
}

/** Writes one line to stdout. */
export function outLine(io: CliIo, line: string): void {
  io.stdout(line.endsWith("\n") ? line : line + "\n");
}
