import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crashSummary } from "../../src/views/crash_summary.ts";

describe("crashSummary()", () => {
  it("keeps the measure, job and cause, and the message's lines after the first as the log's tail", () => {
    const s = crashSummary({
      measure: "candidate#2",
      jobId: "42",
      kind: "exit",
      cause: "eval exited with code 1",
      message: "measure candidate#2 crashed\nTraceback\n  boom",
    });
    assert.deepEqual(s, {
      measure: "candidate#2",
      cause: "eval exited with code 1",
      jobId: "42",
      logTail: "Traceback\n  boom",
    });
  });
});
