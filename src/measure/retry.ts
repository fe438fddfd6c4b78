import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../dispatch/eval_files.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";

/**
 * A job (or array task) that the scheduler ended for a reason of the
 * machine's — its node failed or never booted, or it was preempted — before
 * its eval even started is sent again, as a job of a new array: the measure
 * never ran, so running it now runs it once. Each eval dir keeps the jobs
 * that died so (`retried`, one id per line; the reference's readers ignore
 * it): they are never adopted again as the measure's job, and a measure is
 * retried at most MAX_RETRIES times before its death fails the run as any
 * other does. An eval that started (its `started` file) is never retried:
 * whatever it did may have been done.
 */
export const RETRIED_FILE = "retried";

/** How many times one measure is sent again after a transient death. */
export const MAX_RETRIES = 2;

/** The end states of a job that died of its machine, not of its command. */
const MACHINE_DEATH = /^(NODE_FAIL|BOOT_FAIL|PREEMPTED)\b/;

/** Whether a job that ended in `endState` died of its machine. */
export function diedOfMachine(endState: string): boolean {
  return MACHINE_DEATH.test(endState);
}

/** The jobs of the measure in `evalDir` that died of their machine before it started, oldest first. */
export function retriedJobs(evalDir: string): string[] {
  try {
    return readFileSync(join(evalDir, RETRIED_FILE), "utf8").split("\n").filter((l) => l !== "");
  } catch {
    return [];
  }
}

/**
 * Which retry (1, 2, …) the death of `jobId` in `endState` earns the measure
 * in `ownDir`, whose unit's measures are in `unitDirs` (itself, or a pair's);
 * null when the death fails the run: not of the machine, an eval of the unit
 * started, or no retry left.
 */
export function retryNumber(
  unitDirs: readonly string[],
  ownDir: string,
  jobId: string,
  endState: string,
): number | null {
  if (!diedOfMachine(endState) || unitDirs.some(evalStarted)) return null;
  const tries = retriedJobs(ownDir).filter((j) => j !== jobId).length;
  return tries < MAX_RETRIES ? tries + 1 : null;
}

/** Whether the eval in `evalDir` started (its job script got as far as its first line). */
export function evalStarted(evalDir: string): boolean {
  return existsSync(join(evalDir, EVAL_FILES.started));
}

/**
 * Forgets `jobId` as the job of the measures in `evalDirs` (and of their pair
 * job, `unitMarker`): the id joins each dir's `retried`, then the markers go,
 * so the next dispatch sends them again. In this order, a crash between the
 * two leaves a marker whose job is known retried: the next pass forgets it.
 */
export function forgetDeadJob(evalDirs: readonly string[], unitMarker: string | null, jobId: string): void {
  for (const dir of evalDirs) {
    const jobs = retriedJobs(dir);
    if (!jobs.includes(jobId)) atomicWriteFile(join(dir, RETRIED_FILE), [...jobs, jobId].map((j) => `${j}\n`).join(""));
  }
  if (unitMarker !== null) rmSync(unitMarker, { force: true });
  for (const dir of evalDirs) rmSync(join(dir, EVAL_FILES.submitted), { force: true });
}
