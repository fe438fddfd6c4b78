import { EXIT_OF, OuterloopError } from "../../errors.ts";

/** Exit codes of the CLI (DESIGN.md's contract). */
export const EXIT = {
  ok: 0,
  internal: 1,
  badInput: EXIT_OF["bad-input"],
  evalFailed: EXIT_OF["eval-failed"],
  scheduler: EXIT_OF["scheduler"],
  rejected: 10,
  inconclusive: 11,
  parked: EXIT_OF["parked"],
} as const;

/**
 * The exit code for an error that reached the top: the one an
 * `OuterloopError` says it means; anything else is a bug (exit 1, with the
 * stack trace printed so it can be reported).
 */
export function exitCodeFor(err: unknown): number {
  return err instanceof OuterloopError ? EXIT_OF[err.exit] : EXIT.internal;
}
