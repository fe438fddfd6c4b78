import { realpathSync } from "node:fs";
import { sep } from "node:path";
import type { LiveJob } from "./compute.ts";

/**
 * Whether a listed job runs a script that lies in `dir` — for an eval job,
 * whether it is that run dir's: job names are the reference's liveness hint,
 * and two runs with one run tag measuring the same tree share them. Compared
 * as written and, failing that, with symlinks resolved (the dir may be reached
 * by another path than the one the job was submitted from). A job whose
 * script the backend does not say (a `--wrap` job, such as a wake, whose name
 * carries its run dir) counts as in it.
 */
export function runsFrom(job: LiveJob, dir: string): boolean {
  if (job.script === "") return true;
  const inside = (file: string, root: string) => file.startsWith(root.endsWith(sep) ? root : root + sep);
  return inside(job.script, dir) || inside(realOrAsIs(job.script), realOrAsIs(dir));
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
