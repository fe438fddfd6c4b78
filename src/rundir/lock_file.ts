// Tested by tests/run/stop_local_pass_test.ts
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { isAbsent } from "../fs/absent.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import { escapeControls } from "../text/terminal.ts";

/**
 * The run lock's files and what they say (`lock.ts` has the algorithm): the
 * lock file with its holder's record, and `lock.children` with the process
 * groups its holder started that still run. Every read here is of a file
 * another process may be writing, removing or leaving garbage in, and says
 * so in its result rather than throwing.
 */

/** What a lock file holds: its holder, or "unreadable" (it cannot be read: foreign), or garbage. */
export type LockState = LockHolder | "unreadable" | Garbage;

/** Who holds a lock, as recorded in it. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When it was taken (ISO 8601). */
  readonly acquiredAt: string;
  readonly token: string;
}

/** A lock file that holds no lock record: what it holds instead (empty, or garbage). */
export interface Garbage {
  readonly kind: "garbage";
  readonly text: string;
}

/**
 * What the lock file at `path` says: a holder, "absent", "unreadable" (it
 * cannot be read at all: foreign), or garbage (being written, or nobody's).
 */
export function readHolder(path: string): LockHolder | "absent" | "unreadable" | Garbage {
  if (isAbsent(path)) return "absent";
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "unreadable";
  }
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const { pid, host, acquired_at: acquiredAt, token } = j;
    if (
      typeof pid === "number" && Number.isInteger(pid) && pid > 0 && typeof host === "string" &&
      typeof acquiredAt === "string" && typeof token === "string"
    ) {
      return { pid, host, acquiredAt, token };
    }
  } catch { /* fall through */ }
  return { kind: "garbage", text };
}

/** Who holds a lock, for a message. */
export function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} on host ${JSON.stringify(h.host)} since ${h.acquiredAt}`;
}

/** What a lock file that is not a lock holds, for a message. */
export function describeGarbage(g: Garbage): string {
  if (g.text === "") return "an empty lock file (a lock being written, or one left by a crash)";
  const shown = g.text.length > 80 ? `${g.text.slice(0, 80)}…` : g.text;
  return `a lock file that holds no lock record (${escapeControls(JSON.stringify(shown))})`;
}

/** True unless signalling `pid` reports that no such process exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH"; // EPERM: alive, another user's
  }
}

/** The age of the file at `path`, or null when it cannot be stat'ed. */
export function ageOf(path: string, now: number): number | null {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** The children file of the lock at `path`: the process groups its holder started that are still running. */
export function childrenPath(path: string): string {
  return `${path}.children`;
}

/** Records `pids` (group leaders) as the running children of the holder with `token`. */
export function writeChildren(path: string, token: string, pids: readonly number[]): void {
  try {
    if (pids.length === 0) unlinkIfToken(childrenPath(path), token);
    else atomicWriteFile(childrenPath(path), JSON.stringify({ token, groups: pids }) + "\n");
  } catch (err) {
    log.warn(`cannot record the run lock's children in ${childrenPath(path)}: ${(err as Error).message}`);
  }
}

/** Removes the children file at `file` if it belongs to `token`. */
export function unlinkIfToken(file: string, token: string): void {
  try {
    const j = JSON.parse(readFileSync(file, "utf8")) as { token?: unknown };
    if (j.token === token) unlinkSync(file);
  } catch {
    // absent, or not ours to remove
  }
}

/** The recorded children of the holder with `token` whose process group is still alive. */
export function liveChildren(path: string, token: string): number[] {
  let groups: unknown;
  try {
    const j = JSON.parse(readFileSync(childrenPath(path), "utf8")) as { token?: unknown; groups?: unknown };
    if (j.token !== token) return [];
    groups = j.groups;
  } catch {
    return [];
  }
  if (!Array.isArray(groups)) return [];
  return groups.filter((g): g is number => Number.isInteger(g) && g > 0 && groupAlive(g));
}

/** True unless signalling the process group `pgid` reports that it has no process left. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Creates `path` exclusively with `holder`'s record; false when it already exists. */
export function tryCreate(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    const { pid, host, acquiredAt, token } = holder;
    writeSync(fd, JSON.stringify({ pid, host, acquired_at: acquiredAt, token }) + "\n");
  } catch (err) {
    closeSync(fd);
    unlinkSync(path); // an empty lock would block everyone until it ages out
    throw err;
  }
  closeSync(fd);
  return true;
}

/** The token a lock file holds ("" for one that holds no record): what a breaker checks it still holds. */
export function tokenOf(h: LockState): string {
  return typeof h === "object" && "token" in h ? h.token : "";
}
