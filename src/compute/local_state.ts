import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile } from "../fs/atomic_write.ts";

const PRUNE_AGE_MS = 24 * 3600 * 1000;

/**
 * Where local job states persist across processes: `$AUTORESEARCH_ROOT/local_jobs/`,
 * one file per job id holding its terminal state (the reference's layout), or
 * nowhere when no root is set. Local jobs are synchronous, so only terminal
 * states ever need sharing.
 */
export function localStateDir(env: Readonly<Record<string, string | undefined>>): string | null {
  const root = (env["AUTORESEARCH_ROOT"] ?? "").trim();
  return root ? join(root, "local_jobs") : null;
}

/** Records a terminal state atomically, then prunes entries older than a day. */
export function persistState(dir: string, jobId: string, state: string, now = Date.now()): void {
  mkdirSync(dir, { recursive: true });
  atomicWriteFile(join(dir, jobId), state);
  // one entry per job would leak forever on a long-running loop; anything a
  // reader could still want is far younger than a day
  for (const name of readdirSync(dir)) {
    try {
      const file = join(dir, name);
      if (statSync(file).mtimeMs < now - PRUNE_AGE_MS) unlinkSync(file);
    } catch {
      // raced with another pruner
    }
  }
}

/** The persisted state of a job, or "" when there is none. */
export function readState(dir: string, jobId: string): string {
  try {
    return readFileSync(join(dir, jobId), "utf8").trim();
  } catch {
    return "";
  }
}
