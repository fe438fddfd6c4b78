import { randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { OuterloopError } from "../errors.ts";
import type { RunDir } from "./run_dir.ts";

/**
 * The run-dir lock: two `resume`s (a wake job and a person, or two wakes)
 * working on one run at once could each see a measure as not dispatched and
 * dispatch it twice. The lock is `<runDir>/lock`, created exclusively
 * (O_EXCL), naming its holder. A holder that crashed cannot keep it forever:
 * the lock is stale when its holder ran on this host and that pid is gone, or
 * when it is older than `staleMs`, and a stale lock is broken.
 *
 * Breaking is the delicate part: two processes that both judged the same
 * lock stale must not end up removing each other's fresh lock. So breakers
 * take turns under a second exclusive file, `<runDir>/lock.break` (held for
 * a few syscalls), re-read the lock under it, move it aside under a unique
 * name and check that what they moved is the lock they judged; if not, they
 * put it back (a hard link, which cannot clobber a newer lock).
 *
 * Residual (accepted): a holder judged stale only by age but in fact alive
 * may lose its lock; pass a `staleMs` longer than any hold (a local run
 * measures synchronously for hours).
 */

/** The default age after which a lock is broken whoever holds it: 6 hours. */
export const DEFAULT_STALE_MS = 6 * 60 * 60 * 1000;
/** A break lock older than this is surely abandoned: it is held for a few syscalls. */
const BREAK_STALE_MS = 60_000;
const POLL_MS = 50;

/** Who holds a lock, as recorded in it. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When it was taken (ISO 8601). */
  readonly acquiredAt: string;
  readonly token: string;
}

/**
 * The run dir is locked by a live holder: another outerloop is carrying the
 * run forward, so this one stops with exit 75 ("parked", it will be decided).
 */
export class RunLockedError extends OuterloopError {
  override name = "RunLockedError";
  readonly exit = "parked" as const;
  /** The lock file. */
  readonly path: string;
  /** Its holder, or null when the file could not be read as a lock. */
  readonly holder: LockHolder | null;
  constructor(path: string, holder: LockHolder | null) {
    const who = holder
      ? `pid ${holder.pid} on host ${JSON.stringify(holder.host)} since ${holder.acquiredAt}`
      : "a holder whose lock file cannot be read";
    super(
      `Run dir is locked by ${who}: another outerloop is working on this run. ` +
        `Wait for it to finish; if no outerloop process is running for this run, remove ${JSON.stringify(path)}`,
    );
    this.path = path;
    this.holder = holder;
  }
}

/** Options of `acquireRunLock`. */
export interface RunLockOptions {
  /** Age after which any lock is stale (default 6 h). */
  readonly staleMs?: number;
  /** The clock, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** How long to wait for a live holder before giving up (default 0: fail at once). */
  readonly waitMs?: number;
}

/** A held lock. */
export interface RunLock {
  /** Removes the lock if it is still ours; a no-op after the first call or once the lock was broken. */
  release(): void;
}

/** What the lock file at `path` says: a holder, "absent", or "unreadable" (being written, or foreign). */
function readHolder(path: string): LockHolder | "absent" | "unreadable" {
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
  return "unreadable";
}

/** True unless signalling `pid` reports that no such process exists. */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH"; // EPERM: alive, another user's
  }
}

/** Whether the lock at `path` (holding `h`) may be broken. */
function isStale(path: string, h: LockHolder | "unreadable", now: number, staleMs: number): boolean {
  if (h === "unreadable") {
    // A lock just created and not yet written reads empty: only age breaks it.
    try {
      return now - statSync(path).mtimeMs > staleMs;
    } catch {
      return false;
    }
  }
  if (h.host === hostname() && !pidAlive(h.pid)) return true;
  const since = Date.parse(h.acquiredAt);
  return Number.isNaN(since) || now - since > staleMs;
}

/** Creates `path` exclusively with `holder`'s record; false when it already exists. */
function tryCreate(path: string, holder: LockHolder): boolean {
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

/**
 * Moves the lock at `path` aside if it is still the one holding `token`:
 * renames it to a unique name, then checks what was moved; a different lock
 * (taken meanwhile) is linked back, which fails rather than clobber a newer one.
 */
function removeIfSame(path: string, token: string): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const moved = readHolder(aside);
  if ((typeof moved === "object" ? moved.token : "") !== token) {
    try {
      linkSync(aside, path);
    } catch { /* a newer lock took the path: ours to leave */ }
  }
  unlinkSync(aside);
}

/**
 * Breaks the lock at `path` if, under the break lock, it still holds `token`
 * ("" for an unreadable one). False when another breaker holds the break
 * lock: look again shortly.
 */
function breakLock(path: string, token: string, me: LockHolder, now: number): boolean {
  const breakPath = `${path}.break`;
  if (!tryCreate(breakPath, me)) {
    const b = readHolder(breakPath);
    if (b !== "absent" && isStale(breakPath, b, now, BREAK_STALE_MS)) {
      removeIfSame(breakPath, typeof b === "object" ? b.token : "");
    }
    return false;
  }
  try {
    const h = readHolder(path);
    const current = typeof h === "object" ? h.token : "";
    if (h !== "absent" && current === token) removeIfSame(path, token);
  } finally {
    removeIfSame(breakPath, me.token);
  }
  return true;
}

/**
 * Takes the lock of `runDir`, breaking a stale one, waiting up to `waitMs`
 * for a live holder, then throwing `RunLockedError` naming the holder.
 */
export async function acquireRunLock(dir: RunDir, opts: RunLockOptions = {}): Promise<RunLock> {
  const path = dir.lock;
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const now = opts.now ?? Date.now;
  const deadline = now() + (opts.waitMs ?? 0);
  const token = randomBytes(16).toString("hex");
  for (;;) {
    const me: LockHolder = { pid: process.pid, host: hostname(), acquiredAt: new Date(now()).toISOString(), token };
    if (tryCreate(path, me)) return { release: () => releaseLock(path, token) };
    const h = readHolder(path);
    if (h === "absent") continue; // released between our create and read
    if (isStale(path, h, now(), staleMs)) {
      if (!breakLock(path, typeof h === "object" ? h.token : "", me, now())) await sleep(5);
      continue;
    }
    if (now() >= deadline) throw new RunLockedError(path, typeof h === "object" ? h : null);
    await sleep(POLL_MS);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Removes the lock at `path` only while it still holds `token`. */
function releaseLock(path: string, token: string): void {
  const h = readHolder(path);
  if (typeof h === "object" && h.token === token) {
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}
