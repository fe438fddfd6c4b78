import { hostname } from "node:os";
import { type CalibrationRecord, readCalibration } from "../rundir/calibration_file.ts";
import { readCancel, type RunCancel } from "../rundir/cancel_file.ts";
import { type DecisionRecord, readDecision } from "../rundir/decision_file.ts";
import { readFailure, type RunFailure } from "../rundir/failure_file.ts";
import { type LockHolder, pidAlive, readHolder } from "../rundir/lock_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";

/**
 * Where a run stands, from its files alone: the one answer `show`, `runs`,
 * `report`, `wait` and `resume` all give. In this order:
 *
 * 1. **cancelled** — the user cancelled it (`cancelled.json`) before any
 *    verdict: a cancel always wins over a decision (or calibration) reached
 *    after it, which is kept aside (`lateOutcome`), never reported as the run's;
 * 2. **decided** — `decision.json` (a measure run), or **calibrated** —
 *    `calibration.json` (an A/A run): over, with its verdict or noise report;
 * 3. **failed** — a measure failed for good (`failure.json`);
 * 4. open: on Slurm **parked** (its jobs and its wake carry it on); on the
 *    local backend **measuring** while a live process on this host holds the
 *    run lock, else **interrupted** — the process that measured it stopped
 *    (Ctrl-C, a crash): `outerloop resume` goes on from what is on disk.
 *
 * Whether a decision follows from the results beside it is a separate
 * question (`decision_check.ts`): asking it reads every eval result.
 */
export type Standing =
  | { readonly kind: "cancelled"; readonly cancel: RunCancel; readonly lateOutcome: "decided" | "calibrated" | null }
  | { readonly kind: "decided"; readonly decision: DecisionRecord }
  | { readonly kind: "calibrated"; readonly calibration: CalibrationRecord }
  | { readonly kind: "failed"; readonly failure: RunFailure }
  | { readonly kind: "parked" }
  | { readonly kind: "measuring"; readonly holder: LockHolder }
  | { readonly kind: "interrupted" };

/** The kinds, as `runs --json` and the reports name a run's state. */
export type StandingKind = Standing["kind"];

/** Whether a run in this standing is over (no pass will change it). */
export function isOver(kind: StandingKind): boolean {
  return kind === "cancelled" || kind === "decided" || kind === "calibrated" || kind === "failed";
}

/** Where the run stands (see `Standing`). A damaged or foreign run file is a `RunRecordError`, as its reader says. */
export function runStanding(dir: RunDir, r: RunRecord): Standing {
  const cancel = readCancel(dir);
  const outcome = finished(dir, r);
  if (cancel !== null) {
    const before = outcome !== null && Date.parse(outcome.at) <= Date.parse(cancel.cancelledAt);
    if (!before) return { kind: "cancelled", cancel, lateOutcome: outcome?.standing.kind ?? null };
  }
  if (outcome !== null) return outcome.standing;
  const failure = readFailure(dir);
  if (failure !== null) return { kind: "failed", failure };
  if (r.compute !== "local") return { kind: "parked" };
  const holder = readHolder(dir.lock);
  const alive = typeof holder === "object" && "pid" in holder && holder.host === hostname() && pidAlive(holder.pid);
  return alive ? { kind: "measuring", holder } : { kind: "interrupted" };
}

/** The run's decision or calibration with when it was reached, or null. */
function finished(
  dir: RunDir,
  r: RunRecord,
): { readonly standing: Extract<Standing, { kind: "decided" | "calibrated" }>; readonly at: string } | null {
  if (r.kind === "calibrate") {
    const calibration = readCalibration(dir, r);
    return calibration && { standing: { kind: "calibrated", calibration }, at: calibration.calibratedAt };
  }
  const decision = readDecision(dir, r);
  return decision && { standing: { kind: "decided", decision }, at: decision.decidedAt };
}
