import { hostName as hostname } from "../runtime/host.ts";
import { log } from "../log.ts";
import { procStat } from "../runtime/proc_stat.ts";
import { runtime } from "../runtime/runtime.ts";
import {
  describeHolder,
  groupAlive,
  liveChildren,
  type LockHolder,
  pidAlive,
  readHolder,
  tokenOf,
} from "../rundir/lock_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";

/**
 * Stops the pass that is measuring a local run — what `cancel RUN_DIR` does
 * for `--compute local`, where the evals are subprocesses of the `measure`
 * (or `resume`) that holds the run lock, not jobs in a queue. The lock
 * holder records its running children's process groups in `lock.children`
 * (`watchGroups`); each is sent INT — what the eval script reads as "not a
 * result: record nothing", as on Ctrl-C — then KILL after `graceMs`. The
 * holder sees its eval end without a result, finds `cancelled.json`
 * (written before this is called) and stops with `RunCancelledError`
 * (exit 3), dispatching nothing more.
 *
 * Never an unrelated process: only a holder on this host whose pid is alive,
 * only the groups the children file of THIS lock names under the holder's
 * token, and only a group whose leader is still the holder's child (its
 * parent and process group read from `/proc`, so a pid reused since cannot be
 * hit; without `/proc`, nothing is signalled). Until the holder lets go of
 * the lock (or `waitMs` passes) the children file is read again, so an eval
 * the holder started just as the cancel came is stopped too.
 */

/** What stopping a local run's pass did. */
export interface StoppedPass {
  /** The live holder on this host that was stopped (or asked to stop), or null when none was measuring. */
  readonly holder: LockHolder | null;
  /** The process groups signalled (their leaders' pids), in order. */
  readonly groups: readonly number[];
  /** Whether the holder let go of the run lock (or ended) within the wait. */
  readonly released: boolean;
}

/** Options of `stopLocalPass`. */
export interface StopOptions {
  /** How long to wait for the holder to let go of the lock; default 30 s. */
  readonly waitMs?: number;
  /** Between a group's INT and its KILL; default 10 s (the eval script stops its command within 5). */
  readonly graceMs?: number;
  /** The clock, in epoch ms; default `Date.now`. */
  readonly now?: () => number;
  /** How to wait between looks; default a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const POLL_MS = 50;

/** Stops the local pass holding `dir`'s lock, if one on this host does (see the module's doc). */
export async function stopLocalPass(dir: RunDir, opts: StopOptions = {}): Promise<StoppedPass> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const h = readHolder(dir.lock);
  if (typeof h !== "object" || !("pid" in h)) return { holder: null, groups: [], released: true };
  if (h.host !== hostname()) {
    log.warn(
      `the run is held by ${describeHolder(h)}, another host: its processes cannot be stopped from here; ` +
        "it stops before its next eval",
    );
    return { holder: h, groups: [], released: false };
  }
  if (!pidAlive(h.pid)) return { holder: null, groups: [], released: true };
  const deadline = now() + (opts.waitMs ?? 30_000);
  const graceMs = opts.graceMs ?? 10_000;
  const signalled = new Map<number, number>(); // leader pid → when INT was sent
  const killed = new Set<number>();
  let unverified = false;
  for (;;) {
    const current = readHolder(dir.lock);
    if (current === "absent" || tokenOf(current) !== h.token || !pidAlive(h.pid)) {
      return { holder: h, groups: [...signalled.keys()], released: true };
    }
    for (const pgid of liveChildren(dir.lock, h.token)) {
      if (signalled.has(pgid)) continue;
      if (!isChildGroup(pgid, h.pid)) {
        unverified = unverified || procStat(pgid) === null && groupAlive(pgid);
        continue;
      }
      signal(pgid, "SIGINT");
      signalled.set(pgid, now());
    }
    for (const [pgid, at] of signalled) {
      if (killed.has(pgid) || now() - at < graceMs || !isChildGroup(pgid, h.pid)) continue;
      signal(pgid, "SIGKILL");
      killed.add(pgid);
    }
    if (now() >= deadline) {
      if (unverified) {
        log.warn(
          `cannot tell from /proc whether the process groups in ${dir.lock}.children are the holder's: left alone`,
        );
      }
      return { holder: h, groups: [...signalled.keys()], released: false };
    }
    await sleep(POLL_MS);
  }
}

/** Whether `pgid` leads a process group and is a child of `parent`: one of the holder's jobs, not a reused pid. */
function isChildGroup(pgid: number, parent: number): boolean {
  const s = procStat(pgid);
  return s !== null && s.pgid === pgid && s.ppid === parent;
}

function signal(pgid: number, sig: "SIGINT" | "SIGKILL"): void {
  try {
    runtime().kill(-pgid, sig);
  } catch {
    // gone meanwhile
  }
}

/** What `stopLocalPass` did, as the end of `cancel`'s sentence ("cancelled run R on T: …"). */
export function describeStop(s: StoppedPass): string {
  if (s.holder === null) return "no process of it was running";
  const who = `the local measure (pid ${s.holder.pid})`;
  if (s.holder.host !== hostname()) {
    return `${who} runs on host ${JSON.stringify(s.holder.host)}: it stops before its next eval and writes no verdict`;
  }
  const groups = s.groups.length === 0
    ? `${who} was running no eval`
    : `stopped the eval process group${s.groups.length === 1 ? "" : "s"} ${s.groups.join(", ")} of ${who} ` +
      "(nothing of an unfinished eval is kept)";
  return s.released
    ? `${groups}; it stopped (exit 3)`
    : `${groups}; it still holds the run and stops before its next eval, writing no verdict`;
}
