// Tested by tests/exit_codes_test.ts
import { OuterloopError } from "../errors.ts";

/**
 * A compute backend refused or could not run a job: exit 4 ("scheduler refused
 * or unreachable"). Nothing of the run is lost; the user runs `resume` later.
 */
export class ComputeError extends OuterloopError {
  override name = "ComputeError";
  readonly exit = "scheduler" as const;
}

/** A Slurm command (submit, cancel) failed; the message carries its stderr. */
export class SlurmError extends ComputeError {
  override name = "SlurmError";
}

/**
 * A submission refused by a site limit on submitted jobs (association or
 * QOS `MaxSubmitJobs`, `GrpSubmitJobs`, …: `submit_limit.ts`): it would pass
 * once enough of the user's jobs end, so a caller parks and submits again
 * later instead of failing; `Compute.submitRoom` says how much fits. Never
 * retried in a loop. Nothing was submitted: Slurm refuses an array that
 * would pass the limit as a whole.
 */
export class SubmitLimitError extends SlurmError {
  override name = "SubmitLimitError";
  /** The limit as sbatch named it (`AssocMaxSubmitJobLimit`, `QOSMaxSubmitJobPerUserLimit`, …). */
  readonly limit: string;
  constructor(message: string, limit: string, options?: ErrorOptions) {
    super(message, options);
    this.limit = limit;
  }
}

/** Which of a submission's names the scheduler does not know: its account, partition (GE: queue) or QOS. */
export type Lane = "account" | "partition" | "qos";

/**
 * A submission refused because the scheduler does not know (or does not let
 * this user use) its account, partition or QOS: exit 4 on a later pass like
 * any refusal, but the first submission of a fresh run reads it as bad input
 * (run/first_refusal.ts), since no wait can change it.
 */
export class LaneRefusedError extends SlurmError {
  override name = "LaneRefusedError";
  /** The name the scheduler refused. */
  readonly lane: Lane;
  /** The scheduler's own words, one line. */
  readonly words: string;
  constructor(message: string, lane: Lane, words: string, options?: ErrorOptions) {
    super(message, options);
    this.lane = lane;
    this.words = words;
  }
}

/**
 * A status query failed: the answer is UNKNOWN, not "job gone".
 *
 * Callers must treat this as "defer and retry", never as a terminal state —
 * misreading a scheduler outage as a vanished job would end healthy runs.
 */
export class SlurmQueryError extends ComputeError {
  override name = "SlurmQueryError";
}

/** The local backend could not start a job (no `sh`, no job ids left in this process). */
export class LocalComputeError extends ComputeError {
  override name = "LocalComputeError";
}
