import type { Provenance } from "../dispatch/provenance.ts";

/**
 * What one look of measures came to (`DispatchedMeasurer.look`): the values
 * read, the measures that failed for good, and what is still pending. A
 * measure's own failure is reported here, never thrown: the pass decides
 * what it means (a candidate's crash leaves play; a baseline's fails the
 * run), and every other measure of the look is dispatched and read as if
 * nothing had failed.
 */
export interface LookResults {
  /** Values of the measures done with a readable result, by measure name. */
  readonly values: Record<string, number>;
  /**
   * Each done measure's parsed result object's other finite numbers by key
   * (every top-level key but the metric whose value is a finite JSON
   * number): what a guard reads from the same result line, by measure name.
   */
  readonly metrics: Record<string, Readonly<Record<string, number>>>;
  /** Measures that failed for good, each with its cause, in the look's order (never one outerloop cancelled itself). */
  readonly failed: readonly MeasureFailure[];
  /**
   * Measures whose job outerloop cancelled itself (`LookOptions.cancelledByUs`)
   * and that have no result: neither failed nor sent again. The look is not
   * complete without them; what they mean is the pass's call.
   */
  readonly cancelled: readonly string[];
  /**
   * Non-null when the look is not complete yet: park behind a wake on these
   * job ids (a task's array id; an `afterany` on each covers them), or, when
   * `blind`, on a deadline wake (no id known: the scheduler could not be
   * asked, or a submit limit left nothing to wait on). `soon`: what is
   * awaited is only the scheduler's account of a job that has ended (a
   * signal's exit code whose end state sacct does not give yet): a blind
   * park looks again after `SOON_SECONDS` rather than the deadline wake's delay.
   */
  readonly pending: { readonly jobIds: readonly string[]; readonly blind: boolean; readonly soon: boolean } | null;
  /** The job (or `A_T`) each dispatched measure of the look ran or runs in, by measure name. */
  readonly jobIds: Record<string, string>;
  /** Where and when each done measure ran, for those whose eval recorded it, by measure name. */
  readonly provenance: Record<string, Provenance>;
}

/**
 * How a measure failed for good:
 * - `exit`: its eval command exited non-zero (or a signal it was sent ended it and the scheduler says nothing
 *   that makes it nobody's code);
 * - `no-metric`: it exited 0 but printed no result, not a JSON object, no metric key, or a value that is not a
 *   finite number (or an array of them);
 * - `timeout`: it ran past its walltime (`eval_minutes`), killed (exit 143) or ended TIMEOUT with no result;
 * - `vanished`: its job ended without a result in a state that is its own (FAILED, OUT_OF_MEMORY, …) or left
 *   the scheduler with no record;
 * - `lost`: its job kept ending for causes that are nobody's code (cancelled by someone else, preempted, a node
 *   failure) and was sent again MAX_RETRIES times already (retry.ts): not the tree's fault, but no value;
 * - `pair-hosts`: it ran in a pair job whose measures ended up on different hosts, so they are no pair (every
 *   measure of that job fails so).
 */
export type FailureKind = "exit" | "no-metric" | "timeout" | "vanished" | "lost" | "pair-hosts";

/** One measure that failed for good. */
export interface MeasureFailure {
  /** The measure's name (`candidate-2#3`, `baseline`, `sib-lat-cand`). */
  readonly measure: string;
  /** The job or task (`A_T`) it ran in; null when it never got one. */
  readonly jobId: string | null;
  readonly kind: FailureKind;
  /** One line: "eval command exited with code 1", "ran past eval_minutes (2 minutes)". */
  readonly cause: string;
  /** The full message, as an EvalError would have it (`measure <name>: …`), the output's tail included. */
  readonly message: string;
}

/** What the pass tells a look. */
export interface LookOptions {
  /**
   * Jobs, array tasks (`A_T`) and whole arrays outerloop cancelled itself:
   * a measure whose job ended CANCELLED is sent again unless its job (or
   * its array) is here; here, it is reported in `cancelled`. Default none.
   */
  readonly cancelledByUs?: ReadonlySet<string>;
}

/** How soon a blind park that awaits only the scheduler's account of an ended job looks again. */
export const SOON_SECONDS = 30;
