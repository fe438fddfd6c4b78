import { BadInputError } from "../errors.ts";
import type { JobSpec } from "./job_spec.ts";
import type { JobUsage } from "./usage.ts";

/** One of this user's queued or running jobs, as one queue listing shows it. */
export interface LiveJob {
  readonly id: string;
  readonly name: string;
  /** `PENDING`, `RUNNING`, … ("" when the backend does not say). */
  readonly state: string;
  /** Why a pending job waits (`Dependency`, `Resources`, …); "" or `None` when it runs. */
  readonly reason: string;
  /** The partition it sits in now (a site may move pending jobs); "" when unknown. */
  readonly partition: string;
  /**
   * The batch script it runs, as submitted: an eval job's lies in its run's
   * eval dir, which tells apart two runs' jobs that share a name (the name is
   * the reference's liveness hint, not an owner). "" when the backend does
   * not say, or for a `--wrap` job.
   */
  readonly script: string;
}

/**
 * The verbs every compute backend implements. Callers (the measurer, the CLI,
 * the wake) depend on this, never on a backend.
 */
export interface Compute {
  /** Submits; resolves to the job id. Rejects with a ComputeError on failure. */
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
   * Every live job of this user by name, from ONE queue query, with its state,
   * pending reason and partition: what a caller checking many names (a pass,
   * `show`, `wait`) uses instead of a query per job.
   */
  activeJobs(): Promise<Map<string, LiveJob[]>>;
  /**
   * The states of several jobs from one query (bounded in time so a recycled
   * id cannot match an old job). A job without a record is absent.
   */
  statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>>;
  /**
   * Ids of this user's jobs named `name` submitted at or after `since`, live
   * or ended, lowest first: how a caller that may have submitted a job
   * without learning its id (a lost answer, a crash) finds it before
   * submitting again. Rejects with a SlurmQueryError when it cannot tell.
   */
  findSubmitted(name: string, since: Date): Promise<string[]>;
  /** Cancels; idempotent. A failure is logged, not thrown. */
  cancel(jobId: string): Promise<void>;
  /**
   * Cancels several jobs with ONE scheduler command (`scancel id1 id2 …`);
   * idempotent, like `cancel`. Unlike `cancel`, a failure is thrown (a
   * ComputeError): the caller is telling a person their jobs are gone.
   */
  cancelMany(jobIds: readonly string[]): Promise<void>;
  /**
   * What finished jobs used (elapsed, walltime, max RSS, requested memory,
   * CPU efficiency), from ONE accounting query bounded by `since`. A job
   * without a record is absent; a backend answers what it knows (the local
   * one: how long the jobs it ran took). Rejects when the query fails.
   */
  usage(jobIds: readonly string[], since?: Date): Promise<Map<string, JobUsage>>;
}

/** A job id that is not all digits: refused before any command runs (exit 2). */
export class InvalidJobIdError extends BadInputError {
  override name = "InvalidJobIdError";
}

/** Whether `text` is a scheduler job id: digits only (Slurm's and the local backend's). */
export function isJobId(text: string): boolean {
  return /^[0-9]+$/.test(text);
}

/** Refuses a non-numeric job id before any command runs. */
export function assertJobId(jobId: string): void {
  if (!isJobId(jobId)) {
    throw new InvalidJobIdError(`Not a job id: ${JSON.stringify(jobId)} (expected digits only)`);
  }
}
