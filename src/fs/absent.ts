import { statSync } from "node:fs";

/**
 * Whether nothing is at `path`, from a stat that does not throw for a
 * missing entry. A reader of a file that is usually absent (a run's cancel,
 * failure or wake record, its lock, an eval's `result.json`) asks this before
 * opening it: a failed open throws, and in the compiled binary a throw costs
 * about three times the stat, which a start-up pays once per absent file.
 * Whatever else the stat meets answers false: the read that follows then
 * fails as it always did, and says why.
 */
export function isAbsent(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}
