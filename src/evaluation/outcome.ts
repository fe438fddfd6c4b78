// Tested by tests/evaluation/standing_test.ts
import { RunCancelledError } from "../rundir/cancel_file.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import { RunRecordError } from "../rundir/run_record.ts";
import { checkDecision, disputeWarning } from "./decision_check.ts";
import type { RunSnapshot } from "./snapshot.ts";
import { standingOf } from "./standing.ts";

/** A run that is over with an answer: its decision, or a calibration's report. */
export type FinishedOutcome =
  | { readonly kind: "decided"; readonly decision: DecisionRecord; readonly fresh: boolean }
  /** A calibration (A/A) run measured every pair: its noise report. */
  | { readonly kind: "calibrated"; readonly calibration: CalibrationRecord; readonly fresh: boolean };

/**
 * The run's answer when it already has one, from `standingOf` — what
 * `resume` and `wait` report again, and what stops a pass before it starts;
 * null while the run is open (or failed: a pass says why again). A run the
 * user cancelled is refused (`RunCancelledError`, exit 3) even when a
 * verdict came after the cancel. A decision that does not follow from the
 * results beside it (edited by hand, copied in) is refused as a damaged run
 * file (exit 2), never returned as the run's verdict.
 */
export function finishedOutcome(snapshot: RunSnapshot): FinishedOutcome | null {
  const dir = snapshot.dir;
  const s = standingOf(snapshot);
  if (s.kind === "cancelled") throw new RunCancelledError(dir, s.cancel, s.lateOutcome);
  if (s.kind === "calibrated") return { kind: "calibrated", calibration: s.calibration, fresh: false };
  if (s.kind !== "decided") return null;
  const disagreements = checkDecision(snapshot, s.decision);
  if (disagreements.length > 0) {
    throw new RunRecordError(
      dir.decision,
      "disputed",
      `${disputeWarning(dir, disagreements)}; it is left as it is for you to inspect: move it away and run ` +
        `"outerloop resume ${dir.path}" to decide the run again from its results`,
    );
  }
  return { kind: "decided", decision: s.decision, fresh: false };
}
