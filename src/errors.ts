// Tested by tests/exit_codes_test.ts
/**
 * The base of every error a user can meet on purpose, and the exit code it
 * means. An error that is not an `OuterloopError` — a `TypeError`, a
 * `RangeError`, anything thrown by a library — is a bug in outerloop and
 * reaches the user as exit 1 with its stack trace; everything the user can
 * fix or wait out is one of these, and reaches them as one line.
 *
 * This module imports only the exit-code table, so every layer (runtime,
 * compute, dispatch, measure, run, cli) can extend it without an import
 * running back up.
 */
import type { ExitKind } from "./exit_codes.ts";

export type { ExitKind } from "./exit_codes.ts";

/** An error with a known meaning; subclasses fix `exit`. */
export abstract class OuterloopError extends Error {
  /** Which exit this error means. */
  abstract readonly exit: ExitKind;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * The user's input is wrong — a flag, a file, a value, a missing tool on
 * their PATH — and they can fix it: exit 2. The message names the flag,
 * file or field and says what to do.
 */
export class BadInputError extends OuterloopError {
  override name = "BadInputError";
  readonly exit = "bad-input" as const;
}
