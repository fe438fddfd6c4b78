import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import type { MeasureFailure } from "../../src/measure/look_results.ts";
import { MeasureFailedError } from "../../src/measure/measure_failed.ts";

const failure = (over: Partial<MeasureFailure>): MeasureFailure => ({
  measure: "baseline",
  jobId: "1234_0",
  kind: "exit",
  cause: "eval command exited with code 1",
  message: "measure baseline: Eval command exited with code 1\nlast lines",
  ...over,
} as MeasureFailure);

describe("MeasureFailedError", () => {
  it("is an EvalError carrying the failure itself", () => {
    const f = failure({});
    const err = new MeasureFailedError(f);
    assert.ok(err instanceof EvalError);
    assert.equal(err.failure, f);
  });

  it("names the job on the first line, after the measure, the output's tail kept", () => {
    assert.equal(
      new MeasureFailedError(failure({})).message,
      "measure baseline (job 1234_0): Eval command exited with code 1\nlast lines",
    );
    assert.equal(
      new MeasureFailedError(failure({ message: "lost in the queue" })).message,
      "lost in the queue (job 1234_0)",
    );
  });

  it("leaves a message that names its job already, or a failure with no job, as it is", () => {
    const named = "job 1234_0 ended FAILED";
    assert.equal(new MeasureFailedError(failure({ message: named })).message, named);
    assert.equal(new MeasureFailedError(failure({ jobId: null })).message, failure({}).message);
    assert.equal(
      new MeasureFailedError(failure({ jobId: "12", message: "job 123 ended" })).message,
      "job 123 ended (job 12)",
      "job 12 is not job 123",
    );
  });
});
