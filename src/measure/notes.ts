// Tested by tests/measure/plan_test.ts
import { GONE, isTerminal } from "../compute/states.ts";

/**
 * The note for a job that ended with no result — the reference's
 * `_no_result_note`, word for word (tests/fixtures/identity_vectors.json
 * holds its vectors). A TIMEOUT is the walltime the submit declared, and the
 * author must hear that a slower run needs more minutes, not that
 * measurement broke. An empty or GONE state (the job left the scheduler's
 * memory, or its state is unknown) reads as "vanished". Messages go through
 * `noResultMessage`, which names the contract key to raise.
 */
export function noResultNote(jobId: string, state: string): string {
  if (state.startsWith("TIMEOUT")) {
    return (
      `job ${jobId} hit its walltime (TIMEOUT) before producing a result; ` +
      "a slower run needs more minutes than were declared for its eval"
    );
  }
  if (state && state !== GONE && isTerminal(state)) {
    return `job ${jobId} ended ${state} without a result`;
  }
  return "dispatched job vanished without a result";
}

/**
 * The fix for a job that ran past its walltime: the contract key that sets
 * it, and what it is now (whole minutes, as the job asked for them).
 */
export function raiseEvalMinutes(evalMinutes: number): string {
  return `raise eval_minutes in the contract (now ${evalMinutes} minute${evalMinutes === 1 ? "" : "s"})`;
}

/**
 * What a job that ended FAILED before its eval script wrote its first line
 * (`started`) most likely met: its node could not reach the run dir, where
 * the script and its log live — a node-local path (`/tmp` is each node's
 * own on most clusters) — so the message says where to look.
 */
export function neverStartedHint(jobId: string, runDir: string): string {
  return `its eval never started (no "started" in its eval dir): the node it ran on may not see the run dir ` +
    `${runDir} (a path each node has its own of, such as /tmp, is not shared) — put run dirs on a file system ` +
    `the compute nodes share, and see "sacct -j ${jobId} -o JobID,State,NodeList,ExitCode"`;
}

/** `noResultNote`, and for a TIMEOUT the key to raise (`raiseEvalMinutes`): what the user reads. */
export function noResultMessage(jobId: string, state: string, evalMinutes: number): string {
  const note = noResultNote(jobId, state);
  return state.startsWith("TIMEOUT") ? `${note}: ${raiseEvalMinutes(evalMinutes)}` : note;
}
