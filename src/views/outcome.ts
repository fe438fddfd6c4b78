import { readCalibration } from "../rundir/calibration_file.ts";
import { readDecision } from "../rundir/decision_file.ts";
import type { PhaseOutcome } from "../run/phase.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";

/**
 * The run's outcome when it already has one — its decision, or a
 * calibration's report — read from its files alone; null while it is open.
 * Kept apart from the pass (phase.ts) so that answering for a finished run
 * (a wake's or a person's `resume`, `wait`) loads only what reads files.
 */
export function finishedOutcome(dir: RunDir, r: RunRecord): PhaseOutcome | null {
  if (r.kind === "calibrate") {
    const calibration = readCalibration(dir, r);
    return calibration ? { kind: "calibrated", calibration, fresh: false } : null;
  }
  const decision = readDecision(dir, r);
  return decision ? { kind: "decided", decision, fresh: false } : null;
}
