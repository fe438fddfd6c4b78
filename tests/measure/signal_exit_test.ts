import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explainSignalExit, isSignalExit } from "../../src/measure/signal_exit.ts";

describe("explainSignalExit()", () => {
  it("explains a walltime kill with the contract key to raise", () => {
    assert.equal(
      explainSignalExit("candidate", "143", "TIMEOUT", "see the log", 5),
      "measure candidate was killed at its walltime (exit 143); a slower run needs more minutes than were " +
        "declared for its eval: raise eval_minutes in the contract (now 5 minutes); see the log",
    );
  });

  it("names the cancel, the preemption, out of memory and an end the scheduler kept no record of", () => {
    assert.match(
      explainSignalExit("baseline", "143", "CANCELLED by 1000", "m", 5),
      /^measure baseline was cancelled \(exit 143\); m$/,
    );
    assert.match(
      explainSignalExit("baseline", "143", "PREEMPTED", "m", 5),
      /was preempted \(exit 143\); nothing about the tree/,
    );
    assert.match(
      explainSignalExit("baseline", "137", "OUT_OF_MEMORY", "m", 5),
      /ran out of memory \(exit 137, OUT_OF_MEMORY\); give it more with the contract's eval_mem; m$/,
    );
    assert.match(
      explainSignalExit("baseline", "143", "FAILED", "m", 5),
      /was killed by a signal \(exit 143; its job ended FAILED\); m$/,
    );
    assert.match(
      explainSignalExit("baseline", "143", "", "m", 5),
      /was killed by a signal \(exit 143\), and the scheduler kept no record of how its job ended; m$/,
    );
  });
});

describe("isSignalExit()", () => {
  it("is a TERM's 143 or a KILL's 137, not a command's own exit", () => {
    assert.deepEqual(["143", "137", "0", "1", "139", "125", null].map(isSignalExit), [
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
