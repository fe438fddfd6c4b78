import { raiseEvalMinutes } from "./notes.ts";

/**
 * The exit codes an eval records when a signal stopped it: 143, the job
 * script's record of a TERM (walltime, scancel, preemption, a requeue), and
 * 137, a command KILLed (the kernel's OOM killer, or the scheduler's KILL
 * after its grace). Neither says whose doing the stop was: only the
 * scheduler's end state does.
 */
const SIGNAL_EXITS: ReadonlySet<string> = new Set(["143", "137"]);

/** Whether an eval's recorded exit code (as `exit-code` holds it) means a signal stopped it. */
export function isSignalExit(code: string | null): boolean {
  return code !== null && SIGNAL_EXITS.has(code);
}

/**
 * Explains an eval's signal exit (`code`, 143 or 137) from the scheduler's
 * end state `state` ("" when the scheduler kept no record of it): Slurm
 * sends TERM at the walltime, on scancel and on preemption alike. The
 * walltime case is the author's to fix (more minutes: the message names
 * `eval_minutes` and its value, `evalMinutes`); out of memory too (more
 * `eval_mem`); the others are the cluster's.
 */
export function explainSignalExit(
  measure: string,
  code: string,
  state: string,
  message: string,
  evalMinutes: number,
): string {
  let why: string;
  if (state.startsWith("TIMEOUT")) {
    why = `was killed at its walltime (exit ${code}); a slower run needs more minutes than were declared for its ` +
      `eval: ${raiseEvalMinutes(evalMinutes)}`;
  } else if (state.startsWith("OUT_OF_MEMORY")) {
    why = `ran out of memory (exit ${code}, OUT_OF_MEMORY); give it more with the contract's eval_mem`;
  } else if (state.startsWith("CANCELLED")) {
    why = `was cancelled (exit ${code})`;
  } else if (state.startsWith("PREEMPTED")) {
    why = `was preempted (exit ${code}); nothing about the tree is known`;
  } else if (state === "") {
    why = `was killed by a signal (exit ${code}), and the scheduler kept no record of how its job ended`;
  } else {
    why = `was killed by a signal (exit ${code}; its job ended ${state})`;
  }
  return `measure ${measure} ${why}; ${message}`;
}
