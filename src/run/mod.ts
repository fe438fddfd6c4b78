/**
 * The pass engine: start a run (`startRun`) or continue it (`runPhase`) —
 * under the run lock, dispatch what is missing, park behind a wake job, or
 * decide and write the verdict — and the rest of what changes a run: the
 * wake, the lock, cancel, a failed run's end, a local pass stopped.
 *
 * @module
 */
export { type PhaseOutcome, runPhase, startRun } from "./phase.ts";
export { cancelRun } from "./cancel_run.ts";
export { acquireRunLock, RunLockedError } from "./lock.ts";
