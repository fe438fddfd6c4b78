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

  constructor(jobIds: readonly string[]) {
    super(`${jobIds.length} measure(s) pending: ${jobIds.join(":")}`);
    this.jobIds = Object.freeze([...jobIds]);
  }

  /**
   * The Slurm dependency for the wake job, or "" when the pending set carries
   * no known ids (a transient query failure) — the caller then relies on a
   * deadline wake instead of an afterany one.
   */
  afterany(): string {
    return this.jobIds.length ? `afterany:${this.jobIds.join(":")}` : "";
  }
}
