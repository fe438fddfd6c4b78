/**
 * The evaluation: a run dir read once (snapshot.ts: its records and, on
 * first use, the results its evals left — results_on_disk.ts) and one pure
 * evaluation of it (evaluate.ts) that every command renders: where the run
 * stands (standing.ts, one precedence: a cancel wins over a verdict reached
 * after it), whether its decision follows from the results beside it
 * (decision_check.ts), where its looks and a round's candidates stand
 * (round_standing.ts, through plan/advance.ts, the one place a look
 * advances), the benchmark's two quantities (quantities.ts), and the answer
 * a finished run gives (outcome.ts). Reads files; never asks the scheduler,
 * never writes.
 *
 * @module
 */
