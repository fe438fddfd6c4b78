import { GONE, isTerminal } from "../compute/states.ts";

/**
 * The note for a job that ended with no result — the reference's
 * `_no_result_note`, word for word. A TIMEOUT is the walltime the submit
 * declared, and the author must hear that a slower run needs more minutes,
 * not that measurement broke. An empty or GONE state (the job left the
 * scheduler's memory, or its state is unknown) reads as "vanished".
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
