/**
 * Every exit code outerloop gives, in one table: the README's "Exit codes"
 * section lists exactly these. Errors say which kind they are
 * (`OuterloopError.exit`), verdicts which verdict; this module maps both to
 * the number. It imports nothing, so every layer can reach it.
 */

/** The process exit codes, by meaning. */
export const EXIT = {
  /** Accepted (a verdict), calibrated, or any other command's success. */
  ok: 0,
  /** A bug in outerloop: the stack trace is printed. */
  internal: 1,
  /** A flag, a contract field, a ref, a damaged run file, the user's set-up. */
  badInput: 2,
  /** An evaluation gave no usable result, or the user cancelled the run. */
  evalFailed: 3,
  /** The scheduler refused or could not be reached; nothing is lost. */
  scheduler: 4,
  /** The verdict is reject. */
  rejected: 10,
  /** The verdict is inconclusive. */
  inconclusive: 11,
  /**
   * The candidate crashed: its eval exited non-zero, printed no usable metric, or ran past eval_minutes
   * (a round: every candidate crashed). A verdict on the proposal, not a failure of the run: read its log,
   * fix or discard it.
   */
  crashed: 12,
  /** Parked: a wake job resumes the run (or another process holds it); `wait` detached or timed out. */
  parked: 75,
  /**
   * Interrupted by Ctrl-C (SIGINT) during a pass, measuring locally above all: nothing of the interrupted evals
   * is kept; `resume` goes on. Not returned but died of: outerloop re-raises the signal after stopping its
   * children, and a shell reports that as 128 + 2 (so a shell loop running outerloop stops on Ctrl-C too).
   */
  interrupted: 130,
  /** Terminated by TERM, as `interrupted` otherwise: a shell reports the death as 128 + 15 (a HUP: 129). */
  terminated: 143,
} as const;

/** What an error means for the caller, in the exit-code vocabulary. */
export type ExitKind = "bad-input" | "eval-failed" | "scheduler" | "parked" | "interrupted";

/** The exit code of each error kind. */
export const EXIT_OF: Readonly<Record<ExitKind, number>> = {
  "bad-input": EXIT.badInput,
  "eval-failed": EXIT.evalFailed,
  "scheduler": EXIT.scheduler,
  "parked": EXIT.parked,
  "interrupted": EXIT.interrupted,
};

/** The exit code of each verdict of `measure`, `resume` and `wait`. */
export const VERDICT_EXIT: Readonly<Record<"accept" | "reject" | "inconclusive" | "crashed", number>> = {
  accept: EXIT.ok,
  reject: EXIT.rejected,
  inconclusive: EXIT.inconclusive,
  crashed: EXIT.crashed,
};
