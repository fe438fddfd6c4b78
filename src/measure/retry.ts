import { readFileSync } from "node:fs";
import { join } from "node:path";
import { splitRef } from "../compute/array.ts";
import { RETRIED_FILE } from "./attempts.ts";

/**
 * A job (or array task, or pair job) that ended for a cause that is nobody's
 * code — cancelled by someone else, preempted, requeued, its node failed or
 * never booted — is sent again, as a job of a new array, whether or not its
 * eval had started (an eval the scheduler stopped recorded exit 143, or
 * nothing): such an end says nothing about the tree. A measure is sent again
 * at most MAX_RETRIES times; after that its end is a failure (kind `lost`).
 * A job outerloop cancelled itself is never sent again, nor failed
 * (`LookOptions.cancelledByUs`). The attempts that ended are kept
 * (attempts.ts).
 */
export const MAX_RETRIES = 2;

/** The end states that are nobody's code (sacct decorates CANCELLED: `CANCELLED by 1000`). */
const NOBODYS_CODE = /^(CANCELLED|PREEMPTED|REQUEUED|NODE_FAIL|BOOT_FAIL)\b/;

/** Whether a job that ended in `endState` ended for a cause that is nobody's code. */
export function nobodysCode(endState: string): boolean {
  return NOBODYS_CODE.test(endState);
}

/** Whether `jobId` (a job, an array task `A_T`) was cancelled by outerloop: it, or its whole array, is in `ours`. */
export function cancelledBy(ours: ReadonlySet<string>, jobId: string): boolean {
  return ours.has(jobId) || ours.has(splitRef(jobId).jobId);
}

/**
 * Which retry (1, 2, …) the end of `jobId` earns a measure whose dir has
 * sent `retried` jobs again already; null when it has none left.
 */
export function nextRetry(retried: readonly string[], jobId: string): number | null {
  const tries = retried.filter((j) => j !== jobId).length;
  return tries < MAX_RETRIES ? tries + 1 : null;
}

/**
 * Which retry the end of `jobId` in `endState` earns the measure in
 * `ownDir` (what `show` says a pass will do); null when the end is a
 * failure: of the command, or no retry left. `_unitDirs` is kept for its
 * callers: an eval that started is sent again too now.
 */
export function retryNumber(
  _unitDirs: readonly string[],
  ownDir: string,
  jobId: string,
  endState: string,
): number | null {
  if (!nobodysCode(endState)) return null;
  let retried: string[] = [];
  try {
    retried = readFileSync(join(ownDir, RETRIED_FILE), "utf8").split("\n").filter((l) => l !== "");
  } catch {
    // none yet
  }
  return nextRetry(retried, jobId);
}
