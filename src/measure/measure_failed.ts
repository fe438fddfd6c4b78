import { EvalError } from "../dispatch/eval_error.ts";
import type { MeasureFailure } from "./look_results.ts";

/**
 * A measure's failure that fails the run (its baseline's side, a pair job
 * split over hosts, a job lost past its retries), thrown by the pass with
 * the failure itself, so that `failure.json` and every surface reading it
 * name the measure, the job it ran in and the cause the look met — not only
 * what a message's words say. Exit 3, as every EvalError.
 */
export class MeasureFailedError extends EvalError {
  readonly failure: MeasureFailure;

  constructor(failure: MeasureFailure) {
    super(failureMessage(failure));
    this.failure = failure;
  }
}

/**
 * The failure's message with its job named on the first line, after the
 * measure (`measure baseline (job 1234_0): Eval command exited with code 1`),
 * the output's tail after it: the one line `runs` and the reports show must
 * say which job to look at. A message that names its job already (`job 1234
 * ended FAILED …`), or a failure with no job, is left as it is.
 */
function failureMessage(f: MeasureFailure): string {
  const [first = "", ...rest] = f.message.split("\n");
  if (f.jobId === null || namesJob(first, f.jobId)) return f.message;
  const prefix = `measure ${f.measure}`;
  const job = `(job ${f.jobId})`;
  const named = first.startsWith(`${prefix}:`) || first.startsWith(`${prefix} `)
    ? `${prefix} ${job}${first.slice(prefix.length)}`
    : `${first} ${job}`;
  return [named, ...rest].join("\n");
}

/** Whether `line` names job `jobId` as a word (`job 12` is not `job 123`). */
function namesJob(line: string, jobId: string): boolean {
  return new RegExp(`\\bjob ${jobId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w])`).test(line);
}
