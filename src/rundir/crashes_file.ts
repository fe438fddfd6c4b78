// Tested by tests/run/phase_crash_test.ts
import * as z from "zod/mini";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { lazy, strict } from "../schema/zod.ts";
import type { CrashFacts } from "./decision_file.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile } from "./run_record.ts";

/**
 * `crashes.json`: every candidate measure that crashed — its eval exited
 * non-zero, printed no usable metric, ran past eval_minutes, or its job died
 * of its own — as the passes met them, first met first. A crash is a
 * verdict on that candidate, not a failure of the run: a single candidate's
 * run is then decided "crashed", a round's crashed arm leaves play and the
 * others go on. Kept beside the eval dirs so that every later pass, `show`,
 * `runs` and the reports read the same measure, job and cause without asking
 * the scheduler again (a job that vanished is known only from the pass that
 * saw it). A baseline's failure is the run's (`failure.json`), never here.
 *
 * `stopped` lists the measures a crash stopped (fail fast): the rest of a
 * single candidate's look, or a round's crashed arm's measures from the pair
 * it crashed on, whose queued or running jobs the pass cancelled — outerloop's
 * own cancels, so they are neither failures nor sent again, and what they
 * might still deliver is not read. Absent in files from before it.
 */

const crashesSchema = lazy(() =>
  strict({
    stopped: z.optional(z.array(strict({ measure: z.string(), job_id: z.nullable(z.string()) }))),
    crashes: z.array(strict({
      measure: z.string(),
      job_id: z.nullable(z.string()),
      kind: z.string(),
      cause: z.string(),
      message: z.string(),
      at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    })),
  })
);

/** A crash with when a pass met it. */
export interface MetCrash extends CrashFacts {
  /** ISO 8601. */
  readonly at: string;
}

/** A measure a crash stopped, and the job of it the pass cancelled (null: it was never dispatched). */
export interface StoppedMeasure {
  readonly measure: string;
  readonly jobId: string | null;
}

/** The measures crashes stopped so far; [] when none. */
export function readStopped(dir: RunDir): StoppedMeasure[] {
  return readCrashRecord(dir).stopped;
}

/** The crashes and the measures they stopped, from one read of the file. */
export function readCrashRecord(dir: RunDir): { crashes: MetCrash[]; stopped: StoppedMeasure[] } {
  const j = readRunFile(dir.crashes, crashesSchema, "crash record");
  if (j === null) return { crashes: [], stopped: [] };
  return {
    crashes: j.crashes.map((c) => ({
      measure: c.measure,
      jobId: c.job_id,
      kind: c.kind,
      cause: c.cause,
      message: c.message,
      at: c.at,
    })),
    stopped: (j.stopped ?? []).map((s) => ({ measure: s.measure, jobId: s.job_id })),
  };
}

/**
 * Adds `stopped` to the record (atomically; the first record of a measure
 * kept) BEFORE their jobs are cancelled, so a pass that meets a cancelled job
 * knows it for outerloop's own. Returns every stopped measure.
 */
export function recordStopped(dir: RunDir, stopped: readonly StoppedMeasure[]): StoppedMeasure[] {
  const j = readRunFile(dir.crashes, crashesSchema, "crash record");
  const known = (j?.stopped ?? []).map((s) => ({ measure: s.measure, jobId: s.job_id }));
  const fresh = stopped.filter((s) => !known.some((k) => k.measure === s.measure));
  const all = [...known, ...fresh];
  if (fresh.length > 0) {
    atomicWriteJson(dir.crashes, {
      stopped: all.map((s) => ({ measure: s.measure, job_id: s.jobId })),
      crashes: j?.crashes ?? [],
    });
  }
  return all;
}

/** The crashes recorded so far, first met first; [] when none. A damaged file is a `RunRecordError`, left as it is. */
export function readCrashes(dir: RunDir): MetCrash[] {
  return readCrashRecord(dir).crashes;
}

/**
 * Adds `met` to the record (atomically), keeping the first record of each
 * measure: a later pass that meets the same crash changes nothing. Returns
 * the record as it now stands.
 */
export function recordCrashes(dir: RunDir, met: readonly CrashFacts[], now: number): MetCrash[] {
  const known = readCrashes(dir);
  const fresh = met.filter((c) => !known.some((k) => k.measure === c.measure));
  if (fresh.length === 0) return known;
  const at = new Date(now).toISOString();
  const all = [...known, ...fresh.map((c) => ({ ...c, at }))];
  const stopped = readStopped(dir);
  atomicWriteJson(dir.crashes, {
    ...(stopped.length === 0 ? {} : { stopped: stopped.map((s) => ({ measure: s.measure, job_id: s.jobId })) }),
    crashes: all.map((c) => ({
      measure: c.measure,
      job_id: c.jobId,
      kind: c.kind,
      cause: c.cause,
      message: c.message,
      at: c.at,
    })),
  });
  return all;
}

/** The crashed measures as the looks take them (plan/advance.ts): measure name → cause. */
export function crashedMeasures(crashes: readonly CrashFacts[]): ReadonlyMap<string, string> {
  return new Map(crashes.map((c) => [c.measure, c.cause]));
}
