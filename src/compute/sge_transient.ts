// Tested by tests/compute/sge_test.ts
import type { SpawnResult } from "../runtime/spawn_types.ts";
import type { FailureKind } from "./transient.ts";

/**
 * Which GE client failures are worth another try (transient.ts's kinds,
 * for qsub, qstat, qacct, qdel and qconf). GE's clients print commlib's
 * words when the qmaster is down or restarting (seen on the testbed with
 * sge_qmaster stopped): nothing reached it. A command that timed out or was
 * killed may have been sent. Everything else — a refusal (`denied:`,
 * `Unable to run job:`), a bad option — is final.
 */
const NOT_SENT: readonly RegExp[] = [
  /unable to contact qmaster/i,
  /unable to send message to qmaster/i,
  /commlib error: (got select error|can't connect|connection refused|access denied)/i,
  /Connection refused/,
  /qmaster (is )?(not|no longer) (alive|running)/i,
  /failed receiving gdi request/i,
];

const MAYBE_SENT: readonly RegExp[] = [
  /commlib error: (got read error|got send error|receive timeout)/i,
  /Connection reset by peer/,
  /Connection timed out/,
];

/** How a failed GE command failed. */
export function classifySge(r: SpawnResult): FailureKind {
  if (r.timedOut || r.exitCode === null) return "maybe-sent";
  const text = `${r.stderr}\n${r.stdout}`;
  if (MAYBE_SENT.some((p) => p.test(text))) return "maybe-sent";
  if (NOT_SENT.some((p) => p.test(text))) return "not-sent";
  return "final";
}
