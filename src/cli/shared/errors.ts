// Tested by tests/exit_codes_test.ts
import { EXIT, EXIT_OF } from "../../exit_codes.ts";
import { OuterloopError } from "../../errors.ts";

/**
 * The exit code for an error that reached the top: the one an
 * `OuterloopError` says it means; anything else is a bug (exit 1, with the
 * stack trace printed so it can be reported).
 */
export function exitCodeFor(err: unknown): number {
  return err instanceof OuterloopError ? EXIT_OF[err.exit] : EXIT.internal;
}
