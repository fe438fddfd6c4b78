// Tested by tests/compute/array_test.ts
import { BadInputError } from "../errors.ts";
import type { JobSpec } from "./job_spec.ts";
import type { JobUsage } from "./usage.ts";

/** One of this user's queued or running jobs (or array tasks), as one queue listing shows it. */
export interface LiveJob {
  /** The job's id (`123`), or an array task's `A_T` (`123_4`): what the other verbs take. */
  readonly id: string;
  /** The array an array task belongs to (`123`); null for a plain job. */
  readonly arrayId: string | null;
  /** The task's index in its array (4); null for a plain job. */
  readonly taskId: number | null;
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
  /**
   * True when `submit` and `submitArray` run the job to its end before they
   * resolve (the local backend): a caller says what it sends before, not after.
   */
  readonly runsOnSubmit?: boolean;
  /**
   * Submits; resolves to the job id. Rejects with a ComputeError on failure —
   * a SubmitLimitError when a site limit on submitted jobs refused it (wait
   * for jobs to end, then submit again).
   */
  submit(spec: JobSpec): Promise<string>;
  /**
   * Submits ONE job array of `tasks` tasks (indices 0 … tasks − 1, at most
   * `throttle` running at once when given) of the spec's script or command,
   * which reads its index from `$SLURM_ARRAY_TASK_ID` (Grid Engine's
   * `$SGE_TASK_ID` counts from 1: task T is GE's T + 1); resolves to the array
   * id A, its tasks being `A_0` … `A_(tasks−1)`. The same care as `submit`
   * (a refusal is never retried; one that may have submitted is looked up by
   * name first), the same errors. The largest index must stay below
   * `maxArraySize()`: split bigger sets with `arrayChunks` (Slurm refuses the
   * whole array otherwise, and every task counts against a submit limit:
   * an array that would pass one is refused as a whole).
   */
  submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string>;
  /**
   * How many tasks one array may have: Slurm's `MaxArraySize` (its largest
   * index is one less; 1001 when the site sets none), Infinity for a backend
   * without a cap. Rejects with a SlurmQueryError when it cannot be read.
   */
  maxArraySize(): Promise<number>;
  /**
   * How many more jobs (each array task one) this user may submit now to
   * `target`'s account, partition and QOS before a site limit on submitted
   * jobs refuses them: the tightest of the association's and the QOS's
   * submit limits, minus what each counts now (this user's pending and
   * running jobs and tasks, or the account's for a group limit). Null when
   * no such limit applies (none is set, or the site does not enforce limits).
   * A caller keeping room for a wake job asks for one more than it submits.
   * Rejects with a SlurmQueryError when it cannot tell.
   */
  submitRoom(target: SubmitTarget): Promise<SubmitRoom | null>;
  /**
   * The job's state, or GONE when a successful query finds no record. Takes a
   * task's `A_T` too: a pending task has no accounting record of its own, so
   * its state then comes from the queue.
   */
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
   * id cannot match an old job). A job without a record is absent. Takes
   * array tasks' `A_T` ids, each answered from the task's own record: a
   * pending task has none yet, and a task cancelled while pending never gets
   * one — both are absent (while its array lives, absence is not "gone").
   */
  statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>>;
  /**
   * How many times the scheduler requeued each of `jobIds` (ran it again under
   * the same id: preemption, a lost node, `scontrol requeue`), from one query;
   * a job never requeued is absent. Only a scheduler that requeues has it.
   */
  requeues?(jobIds: readonly string[], since?: Date): Promise<Map<string, number>>;
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
   * ComputeError): the caller is telling a person their jobs are gone. An
   * array task is cancelled by its `A_T` (on Slurm 22.05 a task's raw id is
   * silently ignored), a whole array by its id.
   */
  cancelMany(jobIds: readonly string[]): Promise<void>;
  /**
   * What finished jobs used (elapsed, walltime, max RSS, requested memory,
   * CPU efficiency), from ONE accounting query bounded by `since`. A job
   * without a record is absent; a backend answers what it knows (the local
   * one: how long the jobs it ran took). Rejects when the query fails.
   * Array tasks by `A_T`, each from its own record and steps.
   */
  usage(jobIds: readonly string[], since?: Date): Promise<Map<string, JobUsage>>;
}

/** Where a submission would go, for `submitRoom`: a JobSpec is one. */
export interface SubmitTarget {
  readonly account: string;
  /** Empty or absent: the default partition. */
  readonly partition?: string;
  /** Empty or absent: the association's default QOS. */
  readonly qos?: string;
}

/** Room under a site's submit limits (`Compute.submitRoom`). */
export interface SubmitRoom {
  /** How many more jobs (each array task one) may be submitted now; never below 0. */
  readonly jobs: number;
  /**
   * The limit that leaves the least room, for messages: e.g.
   * `MaxSubmitJobs=10 of user root in account acct_lim (10 pending or running)`.
   */
  readonly limit: string;
}

/** A job id or task id that is not one: refused before any command runs (exit 2). */
export class InvalidJobIdError extends BadInputError {
  override name = "InvalidJobIdError";
}

/** Whether `text` is a scheduler job id: digits only (Slurm's and the local backend's; an array's id too). */
export function isJobId(text: string): boolean {
  return /^[0-9]+$/.test(text);
}

/** Whether `text` is an array task's id `A_T`: the array id, `_`, the task index (`123_4`). */
export function isTaskId(text: string): boolean {
  return /^[0-9]+_[0-9]+$/.test(text);
}

/** Whether `text` names a job or an array task: `isJobId` or `isTaskId`. */
export function isJobRef(text: string): boolean {
  return isJobId(text) || isTaskId(text);
}

/** Refuses a non-numeric job id before any command runs. */
export function assertJobId(jobId: string): void {
  if (!isJobId(jobId)) {
    throw new InvalidJobIdError(`Not a job id: ${JSON.stringify(jobId)} (expected digits only)`);
  }
}

/** Refuses what is neither a job id nor an array task's `A_T` before any command runs. */
export function assertJobRef(ref: string): void {
  if (!isJobRef(ref)) {
    throw new InvalidJobIdError(
      `Not a job id: ${JSON.stringify(ref)} (expected digits, or an array task's ARRAY_TASK such as 123_4)`,
    );
  }
}
