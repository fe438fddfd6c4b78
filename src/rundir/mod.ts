/**
 * Every file of a run dir: its path (`run_dir.ts` draws the tree), its
 * schema, its reader and its writer — run.json, decision.json,
 * calibration.json, failure.json, cancelled.json, wake.json, the lock's
 * files. A damaged file is reported with its path and left as it is.
 *
 * @module
 */
export { RunDir } from "./run_dir.ts";
export { readRunRecord, type RunRecord, RunRecordError, writeRunRecord } from "./run_record.ts";
export { type DecisionRecord, readDecision, writeDecision } from "./decision_file.ts";
export { readCalibration } from "./calibration_file.ts";
export { readCancel } from "./cancel_file.ts";
export { readFailure } from "./failure_file.ts";
export { readWakeRecord } from "./wake_record.ts";
