import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArgs } from "../../../src/cli/flags.ts";
import { measureWait, measureWaitFlags, waitTiming, waitTimingFlags } from "../../../src/cli/shared/wait_flags.ts";

describe("waitTiming()", () => {
  const timing = (argv: string[]) => waitTiming(parseArgs("wait", waitTimingFlags, argv));

  it("the default growing poll and no timeout, or the seconds given", () => {
    assert.deepEqual(timing([]), { pollS: null, timeoutS: null });
    assert.deepEqual(timing(["--poll", "30", "--timeout", "0"]), { pollS: 30, timeoutS: 0 });
  });

  it("refuses a poll of 0 and anything past a year", () => {
    assert.throws(() => timing(["--poll", "0"]), /Invalid --poll "0": expected a whole number from 1 to/);
    assert.throws(() => timing(["--timeout", String(367 * 24 * 3600)]), /Invalid --timeout/);
  });
});

describe("measureWait()", () => {
  const wait = (argv: string[]) => measureWait(parseArgs("measure", measureWaitFlags, argv));

  it("null without --wait; the timing with it", () => {
    assert.equal(wait([]), null);
    assert.deepEqual(wait(["--wait", "--timeout", "60"]), { pollS: null, timeoutS: 60 });
  });

  it("refuses --poll or --timeout without --wait", () => {
    assert.throws(() => wait(["--poll", "5"]), /--poll goes with --wait: add --wait or drop it/);
  });
});
