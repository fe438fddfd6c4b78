import { hostName as hostname } from "../runtime/host.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import type { RunCancel } from "../rundir/cancel_file.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunFailure } from "../rundir/failure_file.ts";
import { type LockHolder, pidAlive } from "../rundir/lock_file.ts";
import type { RunSnapshot } from "./snapshot.ts";

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
 * question (`decision_check.ts`).
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

/** Where the run stands (see `Standing`), from its snapshot. */
export function standingOf(s: RunSnapshot): Standing {
  const outcome = finished(s);
  if (s.cancel !== null) {
    const before = outcome !== null && Date.parse(outcome.at) <= Date.parse(s.cancel.cancelledAt);
    if (!before) return { kind: "cancelled", cancel: s.cancel, lateOutcome: outcome?.standing.kind ?? null };
  }
  if (outcome !== null) return outcome.standing;
  if (s.failure !== null) return { kind: "failed", failure: s.failure };
  if (s.record.compute !== "local") return { kind: "parked" };
  const h = s.holder;
  const alive = h !== null && h.host === hostname() && pidAlive(h.pid);
  return alive ? { kind: "measuring", holder: h } : { kind: "interrupted" };
}

/** The run's decision or calibration with when it was reached, or null. */
function finished(
  s: RunSnapshot,
): { readonly standing: Extract<Standing, { kind: "decided" | "calibrated" }>; readonly at: string } | null {
  if (s.calibration !== null) {
    return { standing: { kind: "calibrated", calibration: s.calibration }, at: s.calibration.calibratedAt };
  }
  if (s.decision !== null) return { standing: { kind: "decided", decision: s.decision }, at: s.decision.decidedAt };
  return null;
}
