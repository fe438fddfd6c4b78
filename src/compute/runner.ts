// Tested by tests/compute/slurm_test.ts
import { spawn, type SpawnResult } from "../runtime/spawn.ts";
import { safeText } from "../text/terminal.ts";
import { schedulerEnv } from "./job_env.ts";

/**
 * Runs one scheduler command under a timeout and resolves to how it ended —
 * the one result shape of a finished process (`SpawnResult`), timeouts
 * included (`timedOut`). Rejects only when the command cannot run at all
 * (not found). `env`: variables for this command on top of the clean
 * scheduler environment (`SLURM_BITSTR_LEN=0` for squeue). Injected so tests
 * can script answers.
 */
export type Runner = (
  argv: readonly string[],
  timeoutMs: number,
  env?: Readonly<Record<string, string>>,
) => Promise<SpawnResult>;

/**
 * A runner over the runtime's spawn, stdout and stderr apart, in a clean
 * scheduler environment derived from `env` (read at each call).
 */
export function makeSubprocessRunner(
  env: () => Readonly<Record<string, string | undefined>> = () => process.env,
): Runner {
  return (argv, timeoutMs, extra = {}) =>
    spawn({
      argv,
      env: { ...schedulerEnv(env()), ...extra },
      timeoutMs,
      graceMs: 1000,
      drainMs: 2000,
      output: "separate",
    });
}

/** The real runner, over this process's environment. */
export const subprocessRunner: Runner = makeSubprocessRunner();

/**
 * Why a finished scheduler command failed, for a message: its timeout, exit
 * code and stderr (escaped and capped: it reaches the terminal).
 */
export function failureOf(r: SpawnResult, timeoutMs: number): string {
  if (r.timedOut) {
    return `did not finish within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  }
  const how = r.exitCode === null ? `was killed by ${r.signal ?? "a signal"}` : `failed (${r.exitCode})`;
  return `${how}: ${safeText(r.stderr.trim())}`;
}
