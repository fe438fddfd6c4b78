/**
 * Everything a person reads, as pure renderers of plain data: the runs
 * table, Markdown and self-contained HTML reports with SVG charts, and the
 * terminal tables of `show` (verdict, resource use, where and when,
 * calibration). Each label says whether it shows the improvement (positive =
 * better) or the difference (candidate − baseline).
 *
 * @module
 */
export { type Climb, type RunSummary, toClimb } from "./model.ts";
export { formatRunsTable } from "./runs_table.ts";
export { runsJson } from "./runs_json.ts";
export { formatDecisionTable } from "./verdict_table.ts";
export { formatRoundTable } from "./round_table.ts";
export type { RoundArm, RoundSummary } from "./round_model.ts";
