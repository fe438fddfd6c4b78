// Tested by tests/exit_codes_test.ts
import { BadInputError } from "../errors.ts";
import type { Signal } from "./adapter.ts";

/** What `spawn` runs and how. */
export interface SpawnOptions {
  /** The program and its arguments; argv[0] is looked up on the env's PATH. */
  readonly argv: readonly string[];
  /** The child's whole environment; omitted = inherit this process's. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Walltime: TERM to the whole group, then KILL after `graceMs`. */
  readonly timeoutMs?: number;
  /** Between TERM and KILL; default 2000 ms. */
  readonly graceMs?: number;
  /**
   * Where output goes:
   * - "separate": stdout and stderr captured apart (for scheduler commands);
   * - "combined": both, in the order written, into `output`;
   * - { file }: both, in order, into that file (created or truncated).
   */
  readonly output?: "separate" | "combined" | { readonly file: string };
  /** Run in a new session (own process group), so the group kill reaches grandchildren. Default true. */
  readonly newSession?: boolean;
  /** How long to keep reading output after the KILL before giving up; default 10 s. */
  readonly drainMs?: number;
  /**
   * What the group gets (before the KILL) when THIS process is told to stop,
   * as opposed to the walltime's TERM; default SIGTERM. New sessions only.
   */
  readonly stopSignal?: Signal;
}

/** One finished process, success or failure. */
export interface SpawnResult {
  readonly argv: readonly string[];
  /** Null when killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Stdout ("separate") or the merged output ("combined"); "" for a file. */
  readonly stdout: string;
  /** Stderr in "separate" mode, else "". */
  readonly stderr: string;
  readonly durationMs: number;
  /** The walltime ran out and the group was killed. */
  readonly timedOut: boolean;
  /** Output reading was abandoned after the kill (a child escaped the group and held the pipe). */
  readonly drainAbandoned: boolean;
}

/**
 * argv[0] is not an executable on the PATH the child would use: the user's
 * set-up lacks a tool (git, sh, sbatch) — exit 2 unless a caller knows better
 * (a missing sbatch is an unreachable scheduler).
 */
export class CommandNotFoundError extends BadInputError {
  override name = "CommandNotFoundError";
  constructor(readonly command: string, path: string) {
    super(`Command not found: ${JSON.stringify(command)} (searched PATH=${path})`);
  }
}
