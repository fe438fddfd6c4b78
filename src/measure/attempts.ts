import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../dispatch/eval_files.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";

/**
 * An eval dir's history of attempts. A measure is sent again when its job
 * ended for a cause that was nobody's code (retry.ts), and `forgetFailed`
 * makes a failed one undispatched for a later pass; either way the attempt
 * that ended is set aside, never deleted:
 *
 * ```text
 * eval-<slot>/
 * ├── retried      the jobs sent again after such an end, one id a line (counted against MAX_RETRIES)
 * ├── forgotten    the jobs of failed attempts set aside by `forgetFailed` (not counted)
 * └── attempt-<n>/ attempt n's files: job (its id), why (one line), and what it left —
 *                  started, output.log, stdout.log, result.json, provenance, exit-code, slurm.out;
 *                  an attempt the scheduler itself ran again (a requeue: the same job id) also
 *                  has `restart` (SLURM_RESTART_COUNT), and was set aside by the eval script
 * ```
 *
 * A job named in `retried` or `forgotten` is never adopted again as the
 * measure's (by its marker, its array's manifest, or its name). The
 * reference's readers ignore all three.
 */
export const RETRIED_FILE = "retried";
export const FORGOTTEN_FILE = "forgotten";
/** In an `attempt-<n>/` the eval script set aside when the scheduler ran its job again: SLURM_RESTART_COUNT. */
export const RESTART_FILE = "restart";

/** What an attempt leaves in its eval dir, moved into `attempt-<n>/` when it is set aside. */
const ATTEMPT_FILES = [
  EVAL_FILES.started,
  EVAL_FILES.output,
  EVAL_FILES.stdout,
  EVAL_FILES.result,
  EVAL_FILES.provenance,
  EVAL_FILES.exitCode,
  EVAL_FILES.slurmOut,
] as const;

/** Why an attempt was set aside: sent again (`retried`), or forgotten after it failed (`forgotten`). */
export type SetAside = "retried" | "forgotten";

/**
 * Sets aside the attempt that ran as `jobId` for the measures in `evalDirs`
 * (a unit's: one, or a pair's) and their pair job's marker `unitMarker`:
 * the id joins each dir's list (`retried` or `forgotten`), the attempt's
 * files move into its `attempt-<n>/` with `why`, then the markers go, so the
 * next dispatch sends the measures again. In this order a crash at any step
 * leaves a marker whose job is listed: the next pass sets it aside again,
 * into the same `attempt-<n>/` (found by its `job`).
 */
export function setAsideAttempt(
  evalDirs: readonly string[],
  unitMarker: string | null,
  jobId: string,
  as: SetAside,
  why: string,
): void {
  for (const dir of evalDirs) {
    const list = join(dir, as === "retried" ? RETRIED_FILE : FORGOTTEN_FILE);
    const jobs = readLines(list);
    if (!jobs.includes(jobId)) atomicWriteFile(list, [...jobs, jobId].map((j) => `${j}\n`).join(""));
    const attempt = attemptDir(dir, jobId);
    if (!existsSync(join(attempt, "why"))) atomicWriteFile(join(attempt, "why"), `${why.split("\n")[0]}\n`);
    for (const name of ATTEMPT_FILES) {
      try {
        renameSync(join(dir, name), join(attempt, name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
  if (unitMarker !== null) rmSync(unitMarker, { force: true });
  for (const dir of evalDirs) rmSync(join(dir, EVAL_FILES.submitted), { force: true });
}

/** One earlier attempt of a measure, as its `attempt-<n>/` keeps it. */
export interface Attempt {
  readonly n: number;
  readonly dir: string;
  /** The job it ran as. */
  readonly jobId: string;
  /** Set aside by the eval script when the scheduler ran the same job again (a requeue), not by a pass. */
  readonly requeued: boolean;
}

/** The attempt dirs of `evalDir` with the job each ran as, oldest first. */
export function attemptsOf(evalDir: string): Attempt[] {
  let names: string[];
  try {
    names = readdirSync(evalDir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const m = /^attempt-([0-9]+)$/.exec(name);
    if (m === null) return [];
    const dir = join(evalDir, name);
    return [{
      n: Number(m[1]),
      dir,
      jobId: readLines(join(dir, "job"))[0] ?? "",
      requeued: existsSync(join(dir, RESTART_FILE)),
    }];
  }).sort((a, b) => a.n - b.n);
}

/**
 * `attempt-<n>/` of `jobId` in `evalDir`: the one a pass set aside that names
 * it (a requeued job's earlier runs, set aside by the eval script under the
 * same id, are other attempts), else a new one after the last.
 */
function attemptDir(evalDir: string, jobId: string): string {
  const all = attemptsOf(evalDir);
  const known = all.find((a) => a.jobId === jobId && !a.requeued);
  if (known !== undefined) return known.dir;
  const dir = join(evalDir, `attempt-${(all.at(-1)?.n ?? 0) + 1}`);
  mkdirSync(dir, { recursive: true });
  atomicWriteFile(join(dir, "job"), `${jobId}\n`);
  return dir;
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
  } catch {
    return [];
  }
}
