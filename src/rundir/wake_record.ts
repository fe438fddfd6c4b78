// Tested by tests/rundir/run_record_test.ts
import { createHash } from "node:crypto";
import * as z from "zod/mini";
import { codePointPrefix } from "../measure/identity.ts";
import { lazy, strict } from "../schema/zod.ts";
import { isJobId } from "../compute/compute.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile } from "./run_record.ts";

/**
 * `wake.json`: the wake job a park submitted, so `show` can say what the run
 * is waiting for and a later `measure`/`resume` can tell a wake is already
 * queued. Rewritten (atomically) at every park; absent before the first one.
 */

const jobId = z.string().check(z.refine(isJobId, { error: "expected a job id (digits only)" }));

const wakeSchema = lazy(() =>
  strict({
    job_id: jobId,
    dependency: z.nullable(z.string()),
    begin: z.nullable(z.string()),
    submitted_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    pending: z.array(jobId),
  })
);

/** The wake job of the latest park. */
export interface WakeRecord {
  /** The wake job's scheduler id. */
  readonly jobId: string;
  /** The `--dependency` it was submitted with (`afterany:<ids>`), or null for a deadline wake. */
  readonly dependency: string | null;
  /** The `--begin` it was submitted with (`now+N`), or null for a dependency wake. */
  readonly begin: string | null;
  /** When it was submitted (ISO 8601). */
  readonly submittedAt: string;
  /** The ids of the measure jobs it waits for; empty when none were known (a deadline wake). */
  readonly pending: readonly string[];
}

/** Records the wake job in `<runDir>/wake.json`, atomically replacing any earlier one. */
export function writeWakeRecord(dir: RunDir, wake: WakeRecord): void {
  const json = {
    job_id: wake.jobId,
    dependency: wake.dependency,
    begin: wake.begin,
    submitted_at: wake.submittedAt,
    pending: [...wake.pending],
  };
  const checked = wakeSchema().safeParse(json);
  if (!checked.success) {
    throw new TypeError(`Refusing to write an invalid wake record:\n${z.prettifyError(checked.error)}`);
  }
  atomicWriteJson(dir.wakeRecord, json);
}

/**
 * The wake job of the latest park, or null when the run never parked. A
 * damaged file is a `RunRecordError` naming it and the bad field, and is
 * left as it is.
 */
export function readWakeRecord(dir: RunDir): WakeRecord | null {
  const j = readRunFile(dir.wakeRecord, wakeSchema, "wake record");
  if (j === null) return null;
  return {
    jobId: j.job_id,
    dependency: j.dependency,
    begin: j.begin,
    submittedAt: j.submitted_at,
    pending: j.pending,
  };
}

/** The wake job's name: readable run tag plus a hash of the run dir, so two runs never share one. */
export function wakeJobName(runTag: string, dir: RunDir): string {
  const h = createHash("sha1").update(dir.path).digest("hex").slice(0, 12);
  return `wake-${codePointPrefix(runTag, 10)}-${h}`;
}
