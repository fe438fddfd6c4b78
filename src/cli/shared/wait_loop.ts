import { withOneListing } from "../../compute/one_listing.ts";
import { EvalError } from "../../dispatch/eval_error.ts";
import { setLogSink } from "../../log.ts";
import { finishedOutcome } from "../../views/outcome.ts";
import { readFailure, withHeadlineNote } from "../../rundir/failure_file.ts";
import { RunLockedError } from "../../run/lock.ts";
import type { PhaseOutcome } from "../../run/phase.ts";
import { countStates, PendingTracker, progressLine } from "../../views/progress.ts";
import type { RunDir } from "../../rundir/run_dir.ts";
import { liveJobsOf } from "../../plan/run_jobs.ts";
import { readRunRecord, type RunRecord } from "../../rundir/run_record.ts";
import { runStatus } from "../../views/run_status.ts";
import { wakeJobName } from "../../run/wake.ts";
import { EXIT } from "../../exit_codes.ts";
import { type CliDeps, outLine } from "./io.ts";
import { ProgressWriter } from "./progress_writer.ts";
import { reportOutcome } from "./run_output.ts";
import { FIRST_POLL_S, MAX_POLL_S, type WaitTiming } from "./wait_flags.ts";

/** Each poll interval is this much longer than the last, up to MAX_POLL_S. */
const GROWTH = 1.5;

/**
 * Blocks until the run is decided and gives the verdict's exit code (0, 10,
 * 11), printing the decision as `resume` does. A failed or cancelled run is
 * an error (exit 3, through the caller). Each poll reads the run's files,
 * then asks the scheduler at most ONE queue listing for all of the run's
 * jobs — measures and wake — (plus the one sacct `runStatus` may need for a
 * job the listing misses). When nothing of the run is live and no decision
 * came (a wake job lost, or a local run whose process died), it makes the
 * resume pass itself rather than wait forever; so it does when a measure
 * failed for good, which ends the run at once (exit 3) and cancels the rest.
 * Ctrl-C (SIGINT / SIGTERM) detaches and `--timeout` gives up, both with
 * exit 75 and nothing changed: the jobs keep running and the wake still
 * decides. `pass` is that resume pass (`runPhase` with the CLI's phase
 * dependencies).
 */
export async function waitForRun(
  dir: RunDir,
  record: RunRecord,
  deps: CliDeps,
  opts: { readonly timing: WaitTiming; readonly json: boolean; readonly pass: () => Promise<PhaseOutcome> },
): Promise<number> {
  const { timing, json } = opts;
  const start = deps.now();
  const deadline = timing.timeoutS === null ? Number.POSITIVE_INFINITY : start + timing.timeoutS * 1000;
  const progress = new ProgressWriter(deps.io, deps.stderrIsTerminal());
  // a log line (a warning, what a pass dispatched) starts on a line of its own, not after the live one
  const restoreLog = setLogSink((line) => {
    progress.end();
    deps.io.stderr(line + "\n");
  });
  const tracker = new PendingTracker();
  const interrupted = new AbortController();
  const listen = () => deps.onInterrupt(() => interrupted.abort());
  let unlisten = listen();
  let intervalS = timing.pollS ?? FIRST_POLL_S;
  // at most one pass of our own between two sleeps: a run that stays stalled is polled, not spun on
  let passedSinceSleep = false;
  try {
    for (;;) {
      const done = settled(dir, record);
      if (done !== null) {
        progress.end();
        return reportOutcome(deps.io, dir, done, json);
      }
      const compute = withOneListing(deps.compute(record.compute));
      const status = await runStatus(dir, record, compute, deps.now);
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
      if ((stalled || failed) && !passedSinceSleep && !interrupted.signal.aborted) {
        // nothing will ever wake this run, or a measure failed for good (the pass says so with
        // exit 3 and cancels the rest): carry it on ourselves (the default death is back on,
        // so a Ctrl-C in a local pass stops its jobs as it always does)
        passedSinceSleep = true;
        unlisten();
        let parked = false;
        try {
          const outcome = await opts.pass();
          if (outcome.kind !== "parked") {
            progress.end();
            return reportOutcome(deps.io, dir, outcome, json);
          }
          parked = true;
        } catch (err) {
          if (!(err instanceof RunLockedError)) {
            progress.end();
            throw err;
          }
          // another outerloop holds the run (a wake that just started): it carries the run on
        } finally {
          unlisten = listen();
        }
        if (parked) continue; // look at what the pass dispatched
      }
      const now = deps.now();
      const counts = countStates(status.measures);
      const longest = tracker.see(status.measures, now);
      const wake = counts.done === counts.total && wakeLive ? "the wake job is deciding" : null;
      const line = progressLine(counts, (now - start) / 1000, longest, wake);
      progress.update(line, progressLine(counts, 0, longest && { ...longest, seconds: 0 }, wake));
      if (interrupted.signal.aborted) return detach(deps, dir, progress, json, "interrupted");
      if (now >= deadline) return detach(deps, dir, progress, json, "timeout", timing.timeoutS);
      await deps.sleep(Math.min(intervalS * 1000, deadline - now), interrupted.signal);
      passedSinceSleep = false;
      if (interrupted.signal.aborted) return detach(deps, dir, progress, json, "interrupted");
      intervalS = timing.pollS ?? Math.min(MAX_POLL_S, intervalS * GROWTH);
    }
  } finally {
    unlisten();
    restoreLog();
    progress.end(); // an error printed after this starts on its own line
  }
}

/**
 * What the files alone say: the decision (a calibration's report), or null
 * while open. A cancelled or failed run throws (exit 3) with when it ended and why.
 */
function settled(dir: RunDir, record: RunRecord): PhaseOutcome | null {
  const done = finishedOutcome(dir, record);
  if (done !== null) return done;
  const failure = readFailure(dir);
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

/** Stops waiting without changing anything: exit 75, and how to come back. */
function detach(
  deps: CliDeps,
  dir: RunDir,
  progress: ProgressWriter,
  json: boolean,
  why: "interrupted" | "timeout",
  timeoutS: number | null = null,
): number {
  progress.end();
  const back = `the run's jobs keep running and its wake job decides it; come back with "outerloop wait ${dir.path}"`;
  deps.io.stderr(
    why === "interrupted"
      ? `outerloop: detached: ${back}\n`
      : `outerloop: not decided after ${timeoutS}s (--timeout); nothing was changed: ${back}\n`,
  );
  if (json) outLine(deps.io, JSON.stringify({ status: "waiting", run_dir: dir.path, stopped: why }));
  return EXIT.parked;
}

/**
 * `measure --wait`: the first pass parked; say so on stderr (stdout is for
 * the verdict) and wait for the decision like `outerloop wait`.
 */
export async function waitAfterPark(
  dir: RunDir,
  deps: CliDeps,
  parked: Extract<PhaseOutcome, { kind: "parked" }>,
  opts: { readonly timing: WaitTiming; readonly json: boolean; readonly pass: () => Promise<PhaseOutcome> },
): Promise<number> {
  const on = parked.pending.length > 0 ? `job(s) ${parked.pending.join(", ")}` : "a queue that could not be read";
  deps.io.stderr(
    `outerloop: parked on ${on} behind wake job ${parked.wake.jobId}; waiting for the verdict (Ctrl-C detaches)\n`,
  );
  return await waitForRun(dir, readRunRecord(dir), deps, opts);
}
