/**
 * Waiting for a run (what `outerloop wait`, `measure --wait` and
 * `calibrate --wait` do): when to poll, when to run a pass itself, when to
 * stop. The caller shows the progress (a `WaitReporter`) and renders the end.
 */
import type { Compute } from "../compute/compute.ts";
import { withOneListing } from "../compute/one_listing.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { liveJobsOf } from "../plan/run_jobs.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";
import { withHeadlineNote } from "../rundir/failure_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { type FinishedOutcome, finishedOutcome } from "../evaluation/outcome.ts";
import { evaluateRun } from "../evaluation/evaluate.ts";
import { readRunSnapshot, type RunSnapshot } from "../evaluation/snapshot.ts";
import { runStatus } from "../views/run_status.ts";
import { RunLockedError } from "./lock.ts";
import type { PhaseOutcome } from "./phase.ts";
import { wakeJobName } from "../rundir/wake_record.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES, evalDirPath } from "../dispatch/eval_files.ts";
import { slot } from "../measure/identity.ts";
import type { Measure } from "../measure/measure.ts";

/** How a wait polls. */
export interface WaitTiming {
  /** A fixed interval in seconds (`--poll`), or null for the gentle default: 10 s growing to 60 s. */
  readonly pollS: number | null;
  /** Give up after this many seconds (`--timeout`), or null to wait for the verdict. */
  readonly timeoutS: number | null;
}

/** The default polling: the first look at once, then 10 s, growing by half each poll, to 60 s. */
export const FIRST_POLL_S = 10;
export const MAX_POLL_S = 60;

/** Each poll interval is this much longer than the last, up to MAX_POLL_S. */
const GROWTH = 1.5;

/** What one poll saw, for the caller to show. */
export interface WaitProgress {
  /** Each measure of the run and where it stands (`runStatus`). */
  readonly measures: readonly MeasureStateRow[];
  /** When each pending or running measure's job was submitted, epoch ms (`runStatus`). */
  readonly submittedMs: Readonly<Record<string, number>>;
  /** The clock at this poll, epoch ms. */
  readonly now: number;
  /** Seconds since the wait began. */
  readonly waitedS: number;
  /** Every measure is in and the wake job is live: it is deciding. */
  readonly wakeDeciding: boolean;
}

/** Where the wait tells how it goes: once a poll, after the look and before the sleep. */
export interface WaitReporter {
  progress(p: WaitProgress): void;
}

/** What waiting reaches outside the run dir. */
export interface WaitDeps {
  /** The run's backend, asked afresh each poll. */
  readonly compute: () => Compute;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
  /** Waits `ms` milliseconds, or less when `signal` aborts; never rejects. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Calls `fn` on SIGINT or SIGTERM until the returned remover runs, holding off the default death. */
  readonly onInterrupt: (fn: () => void) => () => void;
}

/** How a wait ended: the run's answer, or a stop that changed nothing (the jobs keep running, the wake decides). */
export type WaitEnd =
  | { readonly kind: "finished"; readonly outcome: FinishedOutcome }
  | { readonly kind: "detached"; readonly why: "interrupted" | "timeout" };

/**
 * Blocks until the run is decided (or calibrated) and returns its outcome.
 * A failed or cancelled run is an error (exit 3). Each poll reads the run's
 * files, then asks the scheduler at most ONE queue listing for all of the
 * run's jobs — measures and wake — (plus the one sacct `runStatus` may need
 * for a job the listing misses). When nothing of the run is live and no
 * decision came (a wake job lost, or a local run whose process died), it
 * makes the resume pass itself rather than wait forever; so it does when a
 * measure failed for good, which ends the run at once (exit 3) and cancels
 * the rest. Ctrl-C (SIGINT / SIGTERM) detaches and `timing.timeoutS` gives
 * up, both changing nothing. `pass` is that resume pass (`runPhase` with the
 * caller's phase dependencies).
 */
export async function waitForRun(
  dir: RunDir,
  record: RunRecord,
  deps: WaitDeps,
  opts: {
    readonly timing: WaitTiming;
    readonly pass: () => Promise<PhaseOutcome>;
    readonly reporter: WaitReporter;
  },
): Promise<WaitEnd> {
  const { timing } = opts;
  const start = deps.now();
  const deadline = timing.timeoutS === null ? Number.POSITIVE_INFINITY : start + timing.timeoutS * 1000;
  const interrupted = new AbortController();
  const listen = () => deps.onInterrupt(() => interrupted.abort());
  const detached = { kind: "detached", why: "interrupted" } as const;
  let unlisten = listen();
  let intervalS = timing.pollS ?? FIRST_POLL_S;
  // at most one pass of our own between two sleeps: a run that stays stalled is polled, not spun on
  let passedSinceSleep = false;
  try {
    for (;;) {
      const snapshot = readRunSnapshot(dir, record);
      const done = settled(snapshot);
      if (done !== null) return { kind: "finished", outcome: done };
      const compute = withOneListing(deps.compute());
      const status = await runStatus(evaluateRun(snapshot), compute, deps.now);
      let wakeLive: boolean | null = null;
      if (status.schedulerError === null) {
        try {
          const listing = await compute.activeJobs();
          wakeLive = liveJobsOf(listing, new Set([wakeJobName(record.runTag, dir)]), dir).length > 0;
        } catch {
          // unknown: keep waiting, the next poll asks again
        }
      }
      const measuresLive = status.measures.some((m) => m.state === "pending" || m.state === "running");
      const stalled = status.schedulerError === null && wakeLive === false && !measuresLive;
      const failed = status.measures.some((m) => m.state === "failed");
      // a crashed measure is over too: the pass reads it as its candidate's verdict; and one a crash stopped
      const allDone = status.measures.length > 0 &&
        status.measures.every((m) => m.state === "done" || m.state === "crashed" || m.state === "cancelled");
      if ((stalled || failed || allDone) && !passedSinceSleep && !interrupted.signal.aborted) {
        // nothing will ever wake this run, a measure failed for good (the pass says so with exit 3
        // and cancels the rest), or every eval of the look is in — then the wake job is only the
        // safety net, and the run lock keeps the two from doubling anything: carry it on ourselves
        // (the default death is back on, so a Ctrl-C in a local pass stops its jobs as it always does)
        passedSinceSleep = true;
        unlisten();
        let parked = false;
        try {
          const outcome = await opts.pass();
          if (outcome.kind !== "parked") return { kind: "finished", outcome };
          parked = true;
        } catch (err) {
          if (!(err instanceof RunLockedError)) throw err;
          // another outerloop holds the run (a wake that just started): it carries the run on
        } finally {
          unlisten = listen();
        }
        if (parked) continue; // look at what the pass dispatched
      }
      const now = deps.now();
      const wakeDeciding = status.measures.every((m) => m.state === "done") && wakeLive === true;
      opts.reporter.progress({
        measures: status.measures,
        submittedMs: status.submittedMs,
        now,
        waitedS: (now - start) / 1000,
        wakeDeciding,
      });
      if (interrupted.signal.aborted) return detached;
      if (now >= deadline) return { kind: "detached", why: "timeout" };
      await sleepWatching(
        dir,
        record,
        status.plan,
        Math.min(intervalS * 1000, deadline - now),
        deps,
        interrupted.signal,
      );
      passedSinceSleep = false;
      if (interrupted.signal.aborted) return detached;
      intervalS = timing.pollS ?? Math.min(MAX_POLL_S, intervalS * GROWTH);
    }
  } finally {
    unlisten();
  }
}

/** Between two scheduler polls the run dir is looked at this often: a decision is seen within it. */
const FILE_WATCH_MS = 1000;

/**
 * Sleeps `ms` in slices of `FILE_WATCH_MS`, looking at the run dir's files
 * between them — no scheduler call — and waking early when the run has its
 * answer (a wake decided it) or every eval of the look has written its exit
 * code (the next poll then carries the run on without waiting for the wake
 * job to be scheduled).
 */
async function sleepWatching(
  dir: RunDir,
  r: RunRecord,
  look: readonly Measure[],
  ms: number,
  deps: WaitDeps,
  signal: AbortSignal,
): Promise<void> {
  const end = deps.now() + ms;
  const evalsDone = () =>
    look.length > 0 &&
    look.every((m) => existsSync(join(evalDirPath(dir.path, slot(r.image, m)), EVAL_FILES.exitCode)));
  const filesSay = () =>
    existsSync(dir.decision) || existsSync(dir.calibration) || existsSync(dir.failure) ||
    existsSync(dir.cancelled);
  for (;;) {
    const left = end - deps.now();
    if (left <= 0 || signal.aborted) return;
    await deps.sleep(Math.min(FILE_WATCH_MS, left), signal);
    if (filesSay() || evalsDone()) return;
  }
}

/**
 * What the files alone say: the decision (a calibration's report), or null
 * while open. A cancelled or failed run throws (exit 3) with when it ended and why.
 */
function settled(s: RunSnapshot): FinishedOutcome | null {
  const dir = s.dir;
  const done = finishedOutcome(s);
  if (done !== null) return done;
  const failure = s.failure;
  if (failure !== null) {
    throw new EvalError(
      withHeadlineNote(
        failure.message,
        `(the run failed on ${failure.failedAt}; "outerloop show ${dir.path}" has the details)`,
      ),
    );
  }
  return null;
}
