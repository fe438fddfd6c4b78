// Tested by tests/exit_codes_test.ts
import { OuterloopError } from "../errors.ts";

/**
 * An evaluation failed: the job produced no usable metric (no result, a
 * result without the metric key or with a value that is not a finite number),
 * exited non-zero, or has not finished. The message says what was found
 * instead and, when the job left output, ends with its tail, so the author
 * can act without opening the run dir. Exit 3.
 */
export class EvalError extends OuterloopError {
  override name = "EvalError";
  readonly exit = "eval-failed" as const;
}
