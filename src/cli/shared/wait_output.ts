import { setLogSink } from "../../log.ts";
import type { PhaseOutcome } from "../../run/phase.ts";
import { waitForRun, type WaitReporter, type WaitTiming } from "../../run/wait.ts";
import type { RunDir } from "../../rundir/run_dir.ts";
import { readRunRecord, type RunRecord } from "../../rundir/run_record.ts";
import { countStates, PendingTracker, progressLine } from "../../views/progress.ts";
import { EXIT } from "../../exit_codes.ts";
import { type CliDeps, outLine } from "./io.ts";
import { ProgressWriter } from "./progress_writer.ts";
import type { WaitingJson } from "../../output/outcome.ts";
import { reportOutcome } from "./run_output.ts";

/** How the CLI waits: the timing, `--json`, and the resume pass to run when nothing else will. */
export interface WaitOptions {
  readonly timing: WaitTiming;
  readonly json: boolean;
  readonly pass: () => Promise<PhaseOutcome>;
}

/**
 * Waits for the run (`waitForRun`) with a progress line on stderr, and
 * prints how it ended: the decision (or calibration) as `resume` prints it,
 * with its exit code (0, 10, 11), or on a detach (Ctrl-C, `--timeout`) how
 * to come back, exit 75. While it waits a log line (a warning, what a pass
 * dispatched) starts on a line of its own, not after the live one.
 */
export async function waitAndReport(dir: RunDir, record: RunRecord, deps: CliDeps, opts: WaitOptions): Promise<number> {
  const progress = new ProgressWriter(deps.io, deps.stderrIsTerminal());
  const restoreLog = setLogSink((line) => {
    progress.end();
    deps.io.stderr(line + "\n");
  });
  try {
    const end = await waitForRun(dir, record, {
      compute: () => deps.compute(record.compute, record.cluster),
      now: deps.now,
      sleep: deps.sleep,
      onInterrupt: deps.onInterrupt,
    }, { timing: opts.timing, pass: opts.pass, reporter: progressReporter(progress) });
    progress.end();
    if (end.kind === "finished") return reportOutcome(deps.io, dir, record, end.outcome, opts.json);
    return detach(deps, dir, opts.json, end.why, opts.timing.timeoutS);
  } finally {
    restoreLog();
    progress.end(); // an error printed after this starts on its own line
  }
}

/**
 * `measure --wait` and `calibrate --wait`: the first pass parked; say so on
 * stderr (stdout is for the answer) and wait for it like `outerloop wait`.
 */
export async function waitAfterPark(
  dir: RunDir,
  deps: CliDeps,
  parked: Extract<PhaseOutcome, { kind: "parked" }>,
  opts: WaitOptions,
): Promise<number> {
  const record = readRunRecord(dir);
  const on = parked.pending.length > 0 ? `job(s) ${parked.pending.join(", ")}` : "a queue that could not be read";
  const answer = record.kind === "calibrate" ? "calibration" : "verdict";
  deps.io.stderr(
    `outerloop: parked on ${on} behind wake job ${parked.wake.jobId}; waiting for the ${answer} (Ctrl-C detaches)\n`,
  );
  return await waitAndReport(dir, record, deps, opts);
}

/** The progress line of each poll: counts, time waited, the measure pending longest, the wake. */
function progressReporter(progress: ProgressWriter): WaitReporter {
  const tracker = new PendingTracker();
  return {
    progress({ measures, submittedMs, now, waitedS, wakeDeciding }) {
      const counts = countStates(measures);
      const longest = tracker.see(measures, now, submittedMs);
      const wake = wakeDeciding ? "the wake job is deciding" : null;
      const line = progressLine(counts, waitedS, longest, wake);
      progress.update(line, progressLine(counts, 0, longest && { ...longest, seconds: 0 }, wake));
    },
  };
}

/** Stopped waiting without changing anything: exit 75, and how to come back. */
function detach(
  deps: CliDeps,
  dir: RunDir,
  json: boolean,
  why: "interrupted" | "timeout",
  timeoutS: number | null,
): number {
  const back = `the run's jobs keep running and its wake job decides it; come back with "outerloop wait ${dir.path}"`;
  deps.io.stderr(
    why === "interrupted"
      ? `outerloop: detached: ${back}\n`
      : `outerloop: not decided after ${timeoutS}s (--timeout); nothing was changed: ${back}\n`,
  );
  const out: WaitingJson = { status: "waiting", run_dir: dir.path, stopped: why };
  if (json) outLine(deps.io, JSON.stringify(out));
  return EXIT.parked;
}
