import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explainSignalExit } from "../../src/measure/signal_exit.ts";

describe("explainSignalExit()", () => {
  it("a walltime kill names eval_minutes and its value: the author's to fix", () => {
    assert.equal(
      explainSignalExit("candidate", "TIMEOUT", "see the log", 5),
      "measure candidate was killed at its walltime (exit 143); a slower run needs more minutes than were " +
        "declared for its eval: raise eval_minutes in the contract (now 5 minutes); see the log",
    );
  });

  it("a cancel, a preemption and any other signal are the cluster's", () => {
    assert.match(
      explainSignalExit("baseline", "CANCELLED by 1000", "m", 5),
      /^measure baseline was cancelled \(exit 143\); m$/,
    );
    assert.match(
      explainSignalExit("baseline", "PREEMPTED", "m", 5),
      /was preempted \(exit 143\); nothing about the tree/,
    );
    assert.match(explainSignalExit("baseline", "FAILED", "m", 5), /was killed by a signal \(exit 143\); m$/);
  });
});
