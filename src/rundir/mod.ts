/**
 * Every file of a run dir: its path (`run_dir.ts` draws the tree), its
 * schema, its reader and its writer — run.json, decision.json,
 * calibration.json, failure.json, cancelled.json, wake.json, the lock's
 * files. A damaged file is reported with its path and left as it is.
 *
 * @module
 */
