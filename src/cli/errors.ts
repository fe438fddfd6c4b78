import { InvalidJobIdError } from "../compute/compute.ts";
import { SlurmError, SlurmQueryError } from "../compute/errors.ts";

/** Exit codes of the CLI (DESIGN.md's contract). */
export const EXIT = {
  ok: 0,
  internal: 1,
  badInput: 2,
  evalFailed: 3,
  scheduler: 4,
  rejected: 10,
  inconclusive: 11,
  parked: 75,
} as const;

/** The user's input is wrong: a bad flag, file or value. Exit 2, one line, no stack. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Errors that carry their own exit code (the measurer's outcomes register theirs). */
const byName: Record<string, number> = {
  UsageError: EXIT.badInput,
  InvalidJobIdError: EXIT.badInput,
  BadInputError: EXIT.badInput,
  BadNameError: EXIT.badInput,
  ContractError: EXIT.badInput,
  RunRecordError: EXIT.badInput,
  CLIError: EXIT.badInput,
  EvalError: EXIT.evalFailed,
  SlurmError: EXIT.scheduler,
  SlurmQueryError: EXIT.scheduler,
  CommandNotFoundError: EXIT.scheduler,
  // another resume holds the run: it will carry it forward
  RunLockedError: EXIT.parked,
};

/** The exit code for an error that reached the top. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof InvalidJobIdError) return EXIT.badInput;
  if (err instanceof SlurmError || err instanceof SlurmQueryError) return EXIT.scheduler;
  if (err instanceof Error) return byName[err.name] ?? EXIT.internal;
  return EXIT.internal;
}
