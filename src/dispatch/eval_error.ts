/**
 * An evaluation failed: the job produced no usable metric (no result, a
 * result without the metric key or with a value that is not a finite number),
 * exited non-zero, or has not finished. The message says what was found
 * instead and, when the job left output, ends with its tail, so the author
 * can act without opening the run dir. Callers catch it to fail the measure
 * (exit code 3) rather than crash.
 */
export class EvalError extends Error {
  override name = "EvalError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
