// Tested by tests/measure/plan_test.ts
/**
 * Thrown when one or more measures have not completed: the caller parks the
 * run as waiting on exactly this set. Carries the wake dependency (one
 * `afterany:<a>:<b>` wake job covers every id).
 */
export class MeasurementPending extends Error {
  override name = "MeasurementPending";
  /** The pending jobs' ids; empty when the queue could not be read (a blind park). */
  readonly jobIds: readonly string[];
  /**
   * With no id to wait on, when to look again (seconds), or null for the
   * deadline wake's own delay: sooner when only the scheduler's account of
   * a job that has ended is awaited (accounting lags by seconds).
   */
  readonly recheckSeconds: number | null;

  /**
   * Jobs (or `A_T` tasks) of candidate measures still out: on a scheduler
   * that can say "or" in a dependency (Slurm), the wake also starts as soon
   * as one of them fails, so a crash stops the rest of its look at once.
   */
  readonly crashWatch: readonly string[];

  constructor(jobIds: readonly string[], recheckSeconds: number | null = null, crashWatch: readonly string[] = []) {
    super(`${jobIds.length} measure(s) pending: ${jobIds.join(":")}`);
    this.jobIds = Object.freeze([...jobIds]);
    this.recheckSeconds = recheckSeconds;
    this.crashWatch = Object.freeze([...crashWatch]);
  }

  /**
   * The Slurm dependency for the wake job, or "" when the pending set carries
   * no known ids (a transient query failure) — the caller then relies on a
   * deadline wake instead of an afterany one.
   */
  afterany(): string {
    return this.jobIds.length ? `afterany:${this.jobIds.join(":")}` : "";
  }

  /**
   * Slurm's wake dependency: `afterany` on every pending id, or (`?`) as
   * soon as a watched candidate job fails (`afternotok`, one alternative a
   * job); "" as `afterany` gives.
   */
  slurmDependency(): string {
    const all = this.afterany();
    return all === "" ? "" : [all, ...this.crashWatch.map((id) => `afternotok:${id}`)].join("?");
  }
}
