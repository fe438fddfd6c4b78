import { raiseEvalMinutes } from "./notes.ts";

/**
 * Explains an eval job's exit 143 — the job script's record of a TERM — from
 * the scheduler's end state: Slurm sends TERM at the walltime, on scancel and
 * on preemption alike. The walltime case is the author's to fix (more
 * minutes: the message names `eval_minutes` and its value, `evalMinutes`);
 * the others are the cluster's.
 */
export function explainSignalExit(measure: string, state: string, message: string, evalMinutes: number): string {
  let why: string;
  if (state.startsWith("TIMEOUT")) {
    why = "was killed at its walltime (exit 143); a slower run needs more minutes than were declared for its eval: " +
      raiseEvalMinutes(evalMinutes);
  } else if (state.startsWith("CANCELLED")) {
    why = "was cancelled (exit 143)";
  } else if (state.startsWith("PREEMPTED")) {
    why = "was preempted (exit 143); nothing about the tree is known";
  } else {
    why = "was killed by a signal (exit 143)";
  }
  return `measure ${measure} ${why}; ${message}`;
}
