import { type Lane, LaneRefusedError, SlurmError, SubmitLimitError } from "./errors.ts";

/**
 * Which sbatch refusals are a site limit on SUBMITTED jobs — a refusal that
 * passes once some of this user's (or account's) jobs have ended, so the
 * measurer parks instead of failing — read from sbatch's stderr, as
 * `transient.ts` reads the failures worth another try. Never retried in a
 * loop: the jobs that fill the limit take minutes or hours to end.
 *
 * On Slurm 22.05, sbatch prints the controller's reason (`job_reason_string`,
 * the names in libslurmfull.so) on one line, then `slurm_strerror`'s
 * ESLURM_ACCOUNTING_POLICY text on the next (tests/fixtures/slurm_arrays/):
 *
 *     sbatch: error: AssocMaxSubmitJobLimit
 *     sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)
 *
 * That second text is shared with refusals no wait can lift: a QOS with
 * `DenyOnLimit` refuses a job over its MaxWall with the same line, after
 * `QOSMaxWallDurationPerJobLimit`. So a known submit-limit reason decides;
 * another reason named before the policy text makes the refusal final; the
 * policy text alone (a site whose sbatch or wrapper prints no reason) counts
 * as a submit limit, as the text itself says "job submit limit" first.
 */

/**
 * The reasons Slurm 22.05 gives for a submit limit (slurm_protocol_defs.c
 * `job_reason_string`), each seen on the testbed, and the limit names a site
 * wrapper or an older Slurm prints instead.
 */
const SUBMIT_LIMIT_REASONS: readonly RegExp[] = [
  // association MaxSubmitJobs (WAIT_ASSOC_MAX_SUB_JOB)
  /\bAssocMaxSubmitJobLimit\b/,
  // association GrpSubmitJobs (WAIT_ASSOC_GRP_SUB_JOB)
  /\bAssocGrpSubmitJobsLimit\b/,
  // QOS MaxSubmitJobsPerUser (WAIT_QOS_MAX_SUB_JOB)
  /\bQOSMaxSubmitJobPerUserLimit\b/,
  // QOS GrpSubmitJobs (WAIT_QOS_GRP_SUB_JOB)
  /\bQOSGrpSubmitJobsLimit\b/,
  // QOS MaxSubmitJobsPerAccount: 22.05 prints the limit's own name (WAIT_QOS_MAX_SUB_JOB_PER_ACCT)
  /\bMaxSubmitJobsPerAccount\b/,
  // any other text naming the limit (`MaxSubmitJobs`, `MaxSubmitJobsPerUser`, a wrapper's "MaxSubmitJobs reached")
  /\bMaxSubmitJobs/,
];

/** slurm_errno.c ESLURM_ACCOUNTING_POLICY, as printed after "Batch job submission failed: ". */
const POLICY = /Job violates accounting\/QOS policy \(job submit limit/;

/** A reason sbatch printed on a line of its own before the policy text: `sbatch: error: QOSMaxWallDurationPerJobLimit`. */
const REASON_LINE = /^sbatch: error: ([A-Za-z]+)\s*$/m;

/**
 * The submit limit that refused an sbatch, as named in its stderr (the
 * reason, e.g. `AssocMaxSubmitJobLimit`, or the policy text when no reason
 * was printed), or null when the refusal is something else.
 */
export function submitLimitOf(stderr: string): string | null {
  for (const p of SUBMIT_LIMIT_REASONS) {
    const m = p.exec(stderr);
    if (m) return m[0];
  }
  if (!POLICY.test(stderr)) return null;
  // another limit named (a DenyOnLimit MaxWall, MaxTRES, …): not one that ends with jobs ending
  if (REASON_LINE.test(stderr)) return null;
  return "Job violates accounting/QOS policy (job submit limit)";
}

/**
 * The error of a refused sbatch (`why`: its exit code and stderr, for the
 * message): a SubmitLimitError when a limit on submitted jobs refused it,
 * else a SlurmError — saying to split the array when its largest index passed
 * MaxArraySize − 1 (`Invalid job array specification`).
 */
export function sbatchRefusal(stderr: string, why: string): SlurmError {
  const limit = submitLimitOf(stderr);
  if (limit !== null) {
    return new SubmitLimitError(
      `sbatch was refused by a submit limit (${limit}): ${why}; it passes once enough of the jobs it counts have ended`,
      limit,
    );
  }
  const lane = laneRefusalOf(stderr);
  if (lane !== null) return new LaneRefusedError(`sbatch ${why}`, lane.lane, lane.words);
  if (/Invalid job array specification/.test(stderr)) {
    return new SlurmError(
      `sbatch ${why} (an array's largest index must be below MaxArraySize: split it with arrayChunks)`,
    );
  }
  return new SlurmError(`sbatch ${why}`);
}

/**
 * The scheduler's refusals of a name it does not know, by what they name:
 * sbatch's (slurm_errno.c ESLURM_INVALID_ACCOUNT, ESLURM_INVALID_PARTITION_NAME,
 * ESLURM_INVALID_QOS; the testbed prints the first for an unknown --account)
 * and qsub's for an unknown queue (GE's -q, outerloop's partition).
 */
const LANE_REFUSALS: readonly [RegExp, Lane][] = [
  [/Invalid account or account\/partition combination specified/, "account"],
  [/Invalid partition name specified/, "partition"],
  [/Invalid qos specification/, "qos"],
  [/job requests unknown queue "[^"\n]*"/, "partition"],
];

/** Which name a submission's refusal says the scheduler does not know, with its words; null for another refusal. */
export function laneRefusalOf(stderr: string): { lane: Lane; words: string } | null {
  for (const [p, lane] of LANE_REFUSALS) {
    const m = p.exec(stderr);
    if (m) return { lane, words: m[0] };
  }
  return null;
}
