// Tested by tests/run/watch_test.ts
import * as z from "zod/mini";
import { lazy, strict } from "../schema/zod.ts";
import { isJobId } from "../compute/compute.ts";
import { OuterloopError } from "../errors.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile } from "./run_record.ts";

/**
 * `cancelled.json`: the user cancelled the run (`outerloop cancel RUN_DIR`).
 * Written BEFORE any job is cancelled, so a pass that starts meanwhile — a
 * wake whose dependency the cancel just satisfied — refuses to dispatch and
 * says the run was cancelled, instead of reporting its measures as vanished.
 */

const jobId = lazy(() => z.string().check(z.refine(isJobId, { error: "expected a job id (digits only)" })));

const cancelSchema = lazy(() =>
  strict({
    cancelled_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    by: z.literal("user"),
    jobs: z.array(jobId()),
  })
);

/** When the run was cancelled, and which of its jobs that stopped. */
export interface RunCancel {
  /** ISO 8601. */
  readonly cancelledAt: string;
  /** The queued or running jobs the cancel stopped (its evals and its wake); [] when none were live. */
  readonly jobs: readonly string[];
}

/** Records the cancel, atomically (rewritten once the jobs it stopped are known). */
export function writeCancel(dir: RunDir, c: RunCancel): void {
  atomicWriteJson(dir.cancelled, { cancelled_at: c.cancelledAt, by: "user", jobs: [...c.jobs] });
}

/** The recorded cancel, or null; a damaged file is a `RunRecordError` naming it, left as it is. */
export function readCancel(dir: RunDir): RunCancel | null {
  const j = readRunFile(dir.cancelled, cancelSchema, "cancel record");
  return j === null ? null : { cancelledAt: j.cancelled_at, jobs: j.jobs };
}

/**
 * The run was cancelled by the user: nothing more is dispatched or decided.
 * Exit 3, like a failed evaluation — the run gives no verdict.
 */
export class RunCancelledError extends OuterloopError {
  override name = "RunCancelledError";
  readonly exit = "eval-failed" as const;
  /**
   * `late`: a verdict or calibration reached after the cancel exists;
   * `stopped`: what of this process the cancel stopped (a pass in flight),
   * said after the date; `options.cause`: what the pass met when stopped.
   */
  constructor(
    dir: RunDir,
    c: RunCancel,
    late: "decided" | "calibrated" | null = null,
    stopped = "",
    options?: ErrorOptions,
  ) {
    const after = late === null
      ? ""
      : ` (a ${late === "decided" ? "verdict" : "calibration"} reached after the cancel is not the run's)`;
    super(
      `Run ${JSON.stringify(dir.path)} was cancelled by user on ${c.cancelledAt}${after}${stopped}: nothing more is ` +
        "dispatched or decided; measure again in a new run dir",
      options,
    );
  }
}

/** Throws `RunCancelledError` when the run was cancelled; `stopped` says what of this pass that stops. */
export function refuseCancelled(dir: RunDir, stopped = ""): void {
  const c = readCancel(dir);
  if (c !== null) throw new RunCancelledError(dir, c, null, stopped);
}

/**
 * A cancel wins over whatever `fn` met after it: an error thrown while the
 * run is cancelled (an eval the cancel stopped ends without a result, a git
 * it interrupted fails) is the cancel's `RunCancelledError`, with the error
 * as its cause — never an eval failure.
 */
export async function cancelWins<T>(dir: RunDir, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RunCancelledError) throw err;
    let c: RunCancel | null = null;
    try {
      c = readCancel(dir);
    } catch {
      // a damaged cancel record: the error stands as it is
    }
    if (c !== null) throw new RunCancelledError(dir, c, null, ", which stopped this pass", { cause: err });
    throw err;
  }
}

/** Whether the run was cancelled (a damaged cancel record counts: someone wrote it). */
export function isCancelled(dir: RunDir): boolean {
  try {
    return readCancel(dir) !== null;
  } catch {
    return true;
  }
}
