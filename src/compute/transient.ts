import type { SpawnResult } from "../runtime/spawn_types.ts";

/**
 * Which scheduler failures are worth another try, read from the command's
 * stderr: the one place the patterns live. Slurm prints `slurm_strerror()`
 * texts (src/common/slurm_errno.c; the ones below checked against the strings
 * in Slurm 22.05's libslurmfull.so) after the command's own prefix, e.g.
 * `sbatch: error: Batch job submission failed: Socket timed out on send/recv
 * operation`. Anything not listed is final: retrying an unknown error could
 * repeat a side effect we do not understand.
 */

/**
 * How a failed scheduler command ended:
 * - "final": a refusal (bad account, partition, qos…) or an error we do not
 *   know; never retried;
 * - "not-sent": the request never reached the controller (no connection):
 *   retrying cannot duplicate anything;
 * - "maybe-sent": the request may have been carried out although the command
 *   failed (the answer was lost or late): for sbatch, the job may exist, so a
 *   retry must first look for it.
 */
export type FailureKind = "final" | "not-sent" | "maybe-sent";

/** The request never reached the controller (or was refused before it did anything). */
const NOT_SENT: readonly RegExp[] = [
  // slurm_errno.c SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR: connect() to every controller failed
  /Unable to contact slurm controller \(connect failure\)/,
  // slurm_errno.c ESLURM_IN_STANDBY_MODE: a backup controller refused the request
  /Slurm backup controller in standby mode/,
  // slurm_errno.c ESLURM_ERROR_ON_DESC_TO_RECORD_COPY: the controller refused to create the job, "try again"
  /Unable to create job record, try again/,
  // strerror(ECONNREFUSED): nothing listening (slurmctld, or slurmdbd for sacct)
  /Connection refused/,
  // munge (src/plugins/auth/munge): no credential could be made, so nothing was sent
  /Munge encode failed/,
  /Failed to access "?[^"\n]*munge[^"\n]*"?: (No such file or directory|Connection refused)/i,
];

/** The request may have been carried out: its answer was lost, cut or late. */
const MAYBE_SENT: readonly RegExp[] = [
  // slurm_errno.c SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT: the classic "job submitted but sbatch says it failed"
  /Socket timed out on send\/recv operation/,
  // slurm_errno.c SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT
  /Zero Bytes were transmitted or received/,
  // slurm_errno.c SLURMCTLD_COMMUNICATIONS_{SEND,RECEIVE,SHUTDOWN}_ERROR
  /Unable to contact slurm controller \((send|receive|shutdown) failure\)/,
  // slurm_errno.c SLURM_COMMUNICATIONS_{CONNECTION,SEND,RECEIVE}_ERROR
  /Communication connection failure/,
  /Message (send|receive) failure/,
  // sbatch itself, while the controller is busy (src/sbatch/sbatch.c); printed before it retries on its own
  /Slurm temporarily unable to accept job/,
  // strerror(): a connection that broke or stalled mid-request
  /Connection reset by peer/,
  /Connection timed out/,
  /Transport endpoint is not connected/,
  /Resource temporarily unavailable/,
  // sacct when slurmdbd cannot reach its database, or sacct cannot reach slurmdbd mid-query
  /Problem talking to the database/,
  /Unable to connect to database/,
];

/**
 * Refusals, listed so the rule is readable (anything unknown is final too):
 * what the user must fix, and what no retry can change.
 */
export const FINAL_EXAMPLES: readonly string[] = [
  "Invalid account or account/partition combination specified", // ESLURM_INVALID_ACCOUNT
  "Invalid partition name specified", // ESLURM_INVALID_PARTITION_NAME
  "Invalid qos specification", // ESLURM_INVALID_QOS
  "Job violates accounting/QOS policy", // ESLURM_ACCOUNTING_POLICY
  "Requested time limit is invalid (missing or exceeds some limit)", // ESLURM_INVALID_TIME_LIMIT
  "Requested node configuration is not available", // ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE
  "Invalid generic resource (gres) specification", // ESLURM_INVALID_GRES
  "Job dependency problem", // ESLURM_DEPENDENCY
  "Access/permission denied", // ESLURM_ACCESS_DENIED
];

/**
 * How a finished, failed scheduler command ended (see `FailureKind`). A
 * command we killed at our timeout, or that died of a signal, may have done
 * its work: "maybe-sent".
 */
export function classifyFailure(r: SpawnResult): FailureKind {
  if (r.timedOut || r.exitCode === null) return "maybe-sent";
  if (MAYBE_SENT.some((p) => p.test(r.stderr))) return "maybe-sent";
  if (NOT_SENT.some((p) => p.test(r.stderr))) return "not-sent";
  return "final";
}
