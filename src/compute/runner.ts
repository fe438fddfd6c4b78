import { spawn } from "../runtime/spawn.ts";
import { schedulerEnv } from "./scheduler_env.ts";

/** What a scheduler command printed and how it ended. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs one scheduler command under a timeout. Rejects when the command cannot
 * run at all (not found) or does not finish in time; the backends turn that
 * into SlurmError / SlurmQueryError. Injected so tests can script answers.
 */
export type Runner = (argv: readonly string[], timeoutMs: number) => Promise<CommandResult>;

/** A command that did not finish within its timeout. */
export class CommandTimeoutError extends Error {
  override name = "CommandTimeoutError";
}

/**
 * A runner over the runtime's spawn, stdout and stderr apart, in a clean
 * scheduler environment derived from `env` (read at each call).
 */
export function makeSubprocessRunner(
  env: () => Readonly<Record<string, string | undefined>> = () => process.env,
): Runner {
  return async (argv, timeoutMs) => {
    const r = await spawn({
      argv,
      env: schedulerEnv(env()),
      timeoutMs,
      graceMs: 1000,
      drainMs: 2000,
      output: "separate",
    });
    if (r.timedOut) {
      throw new CommandTimeoutError(`${argv[0]} did not finish within ${Math.round(timeoutMs / 1000)} s`);
    }
    return { exitCode: r.exitCode ?? 128, stdout: r.stdout, stderr: r.stderr };
  };
}

/** The real runner, over this process's environment. */
export const subprocessRunner: Runner = makeSubprocessRunner();
