import type { JobSpec } from "./job_spec.ts";

/**
 * The verbs every compute backend implements. Callers (the measurer, the CLI,
 * the wake) depend on this, never on a backend.
 */
export interface Compute {
  /** Submits; resolves to the job id. Rejects with SlurmError on failure. */
  submit(spec: JobSpec): Promise<string>;
  /** The job's state, or GONE when a successful query finds no record. */
  status(jobId: string): Promise<string>;
  /** Seconds the job ran, or null when unknown. */
  elapsedSeconds(jobId: string): Promise<number | null>;
  /** Why a PENDING job waits, or "" when the queue no longer lists it. */
  pendingReason(jobId: string): Promise<string>;
  /** The partition a queued job sits in, or "". */
  jobPartition(jobId: string): Promise<string>;
  /** Names of this user's pending and running jobs. */
  activeJobNames(): Promise<string[]>;
  /** The id of this user's live job with exactly `name`, or "". */
  jobIdForName(name: string): Promise<string>;
  /**
   * Every live job of this user as name → ids, from ONE queue query. What a
   * caller checking many names uses instead of `jobIdForName` per name.
   */
  activeJobs(): Promise<Map<string, string[]>>;
  /**
   * The states of several jobs from one query (bounded in time so a recycled
   * id cannot match an old job). A job without a record is absent.
   */
  statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>>;
  /** Cancels; idempotent. A failure is logged, not thrown. */
  cancel(jobId: string): Promise<void>;
}

/** A job id that is not all digits: refused before any command runs. */
export class InvalidJobIdError extends TypeError {
  override name = "InvalidJobIdError";
}

/** Refuses a non-numeric job id before any command runs. */
export function assertJobId(jobId: string): void {
  if (!/^[0-9]+$/.test(jobId)) {
    throw new InvalidJobIdError(`Not a job id: ${JSON.stringify(jobId)} (expected digits only)`);
  }
}
