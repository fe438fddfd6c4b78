// Tested by tests/compute/slurm_parse_test.ts
/**
 * Slurm job states as the compute verbs report them.
 *
 * sacct decorates some states (`CANCELLED by 123`), so every predicate here
 * matches by prefix.
 */

/** States after which a job never runs again (prefix-matched). */
export const TERMINAL_STATES = [
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "TIMEOUT",
  "OUT_OF_MEMORY",
  "NODE_FAIL",
  "PREEMPTED",
  "BOOT_FAIL",
  "DEADLINE",
] as const;

/** A *successful* query that returned no record: the job left Slurm's memory. */
export const GONE = "GONE";

/**
 * Whether a state string from `status` means the job is over.
 *
 * GONE is deliberately not terminal: it means "no record", and what that
 * implies is the caller's decision, not this predicate's.
 */
export function isTerminal(state: string): boolean {
  return TERMINAL_STATES.some((t) => state.startsWith(t));
}

/** Whether the job is still waiting to start. */
export function isPending(state: string): boolean {
  return state.startsWith("PENDING");
}
