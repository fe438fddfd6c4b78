/**
 * Read-only answers about a run, changing nothing: where it stands (one
 * function, `standing.ts`, that show, runs, report, wait and resume all ask),
 * whether its decision follows from its results, every measure's state for
 * `show`, summaries for `runs` and `report`, where a round of K candidates
 * stands, and the progress of a wait.
 *
 * @module
 */
export { runStanding, type Standing } from "./standing.ts";
export { checkDecision } from "./decision_check.ts";
export { finishedOutcome } from "./outcome.ts";
export { runStatus } from "./run_status.ts";
export { type Climb, climbRunDirs, readClimb, summarizeRun } from "./run_summary.ts";
export { readRoundStanding, type RoundStanding, roundSummary } from "./round_view.ts";
