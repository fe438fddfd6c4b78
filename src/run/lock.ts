import { randomHex } from "../runtime/digest.ts";
import { linkSync, renameSync, unlinkSync } from "node:fs";
import { hostName as hostname } from "../runtime/host.ts";
import { OuterloopError } from "../errors.ts";
import { log } from "../log.ts";
import { watchGroups } from "../runtime/live_groups.ts";
import {
  ageOf,
  childrenPath,
  describeGarbage,
  describeHolder,
  liveChildren,
  type LockHolder,
  type LockState,
  pidAlive,
  readHolder,
  tokenOf,
  tryCreate,
  unlinkIfToken,
  writeChildren,
} from "../rundir/lock_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";

export type { LockHolder } from "../rundir/lock_file.ts";

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
 * A holder's children outlive it: an sbatch still talking to a slow
 * controller, a local job in its own session. Killed (SIGKILL, OOM) while one
 * runs, the holder leaves work in flight that a second pass must not repeat
 * (the sbatch may yet submit the job). So while the lock is held,
 * `lock.children` lists the process groups of the holder's running children
 * (kept current by `watchGroups`), and a dead holder's lock is not broken
 * while any of those groups lives on this host.
 *
 * A lock file that holds no lock record — empty, or garbage — is mid-write
 * for the microseconds between its exclusive create and its one write, and
 * nobody's after that (a crash in between, a disk that lost the write, a
 * stray edit): it is broken once older than `GARBAGE_MS`, whatever `staleMs`.
 *
 * While waiting for a holder, a line on stderr says who holds the lock, once
 * and then every `WAIT_LOG_EVERY_MS`, so a wait is never silent.
 *
 * Residual (accepted): a holder judged stale only by age but in fact alive
 * may lose its lock; pass a `staleMs` longer than any hold (a local run
 * measures synchronously for hours).
 */

/** The default age after which a lock is broken whoever holds it: 6 hours. */
const DEFAULT_STALE_MS = 6 * 60 * 60 * 1000;
/** A break lock older than this is surely abandoned: it is held for a few syscalls. */
const BREAK_STALE_MS = 60_000;
/** A lock file this old that still holds no lock record is nobody's: it is written once, right after its create. */
export const GARBAGE_MS = 5000;
/** While waiting for a holder, say who it is this often (and once at the start). */
export const WAIT_LOG_EVERY_MS = 30_000;
const POLL_MS = 50;

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
  constructor(
    path: string,
    holder: LockHolder | null,
    who = holder ? describeHolder(holder) : "a holder whose lock file cannot be read",
  ) {
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
  /** How to wait between looks (default a timer); tests pass one that advances their clock. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** A held lock. */
export interface RunLock {
  /** Removes the lock if it is still ours; a no-op after the first call or once the lock was broken. */
  release(): void;
}

/** Whether the lock at `path` (holding `h`) may be broken. */
function isStale(path: string, h: LockState, now: number, staleMs: number): boolean {
  if (h === "unreadable") {
    const age = ageOf(path, now);
    return age !== null && age > staleMs;
  }
  if (!("pid" in h)) {
    // written right after its create: a file that still holds no record after GARBAGE_MS never will
    const age = ageOf(path, now);
    return age !== null && age > Math.min(staleMs, GARBAGE_MS);
  }
  if (h.host === hostname() && !pidAlive(h.pid)) return liveChildren(path, h.token).length === 0;
  const since = Date.parse(h.acquiredAt);
  return Number.isNaN(since) || now - since > staleMs;
}

/**
 * Moves the lock at `path` aside if it is still the one holding `token`:
 * renames it to a unique name, then checks what was moved; a different lock
 * (taken meanwhile) is linked back, which fails rather than clobber a newer one.
 */
function removeIfSame(path: string, token: string): void {
  const aside = `${path}.stale-${process.pid}-${randomHex(6)}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const moved = readHolder(aside);
  if (moved === "absent" || tokenOf(moved) !== token) {
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
    if (b !== "absent" && isStale(breakPath, b, now, BREAK_STALE_MS)) removeIfSame(breakPath, tokenOf(b));
    return false;
  }
  try {
    const h = readHolder(path);
    if (h !== "absent" && tokenOf(h) === token) {
      removeIfSame(path, token);
      if (token !== "") unlinkIfToken(childrenPath(path), token);
    }
  } finally {
    removeIfSame(breakPath, me.token);
  }
  return true;
}

/** The holder, or what the file holds instead, for a message (`path`: the lock, for the holder's children). */
function describe(h: LockState, path: string): string {
  if (h === "unreadable") return "a holder whose lock file cannot be read";
  if (!("pid" in h)) return describeGarbage(h);
  if (h.host !== hostname() || pidAlive(h.pid)) return describeHolder(h);
  const kids = liveChildren(path, h.token);
  if (kids.length === 0) return describeHolder(h);
  return `${describeHolder(h)}, which has exited while its child process group ${kids.join(", ")} ` +
    "(a scheduler command or a local job) still runs";
}

/**
 * Takes the lock of `runDir`, breaking a stale one, waiting up to `waitMs`
 * for a live holder (saying who it is on stderr, once and then every
 * `WAIT_LOG_EVERY_MS`), then throwing `RunLockedError` naming the holder.
 */
export async function acquireRunLock(dir: RunDir, opts: RunLockOptions = {}): Promise<RunLock> {
  const path = dir.lock;
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + (opts.waitMs ?? 0);
  const token = randomHex(16);
  let nextLog = -Infinity;
  for (;;) {
    const me: LockHolder = { pid: process.pid, host: hostname(), acquiredAt: new Date(now()).toISOString(), token };
    if (tryCreate(path, me)) {
      const unwatch = watchGroups((pids) => writeChildren(path, token, pids));
      return {
        release: () => {
          unwatch();
          unlinkIfToken(childrenPath(path), token);
          releaseLock(path, token);
        },
      };
    }
    const h = readHolder(path);
    if (h === "absent") continue; // released between our create and read
    if (isStale(path, h, now(), staleMs)) {
      if (typeof h === "object" && !("pid" in h)) log.warn(`breaking the run lock ${path}: ${describe(h, path)}`);
      if (!breakLock(path, tokenOf(h), me, now())) await sleep(5);
      continue;
    }
    const t = now();
    if (t >= deadline) {
      throw new RunLockedError(path, typeof h === "object" && "pid" in h ? h : null, describe(h, path));
    }
    if (t >= nextLog) {
      const left = Math.ceil((deadline - t) / 1000);
      log.info(`waiting for the run lock ${path} (up to ${left} s more): held by ${describe(h, path)}`);
      nextLog = t + WAIT_LOG_EVERY_MS;
    }
    await sleep(POLL_MS);
  }
}

/** Removes the lock at `path` only while it still holds `token`. */
function releaseLock(path: string, token: string): void {
  const h = readHolder(path);
  if (h !== "absent" && tokenOf(h) === token && token !== "") {
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}
