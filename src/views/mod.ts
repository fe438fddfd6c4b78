/**
 * Views: what a command shows of a run, built from its evaluation
 * (src/evaluation/) and, for `show` and `wait`, one look at the scheduler —
 * every measure's state for `show` (run_status.ts, run_view.ts and its JSON,
 * run_view_json.ts), summaries of runs and climbs for `runs` and `report`
 * (run_summary.ts), a round's candidates for the tables (round_view.ts), and
 * the progress line of a wait (progress.ts). Nothing here decides anything
 * or writes a file.
 *
 * @module
 */
