import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatDuration } from "../../src/text/duration.ts";

describe("formatDuration()", () => {
  it("gives two units at most, the second two digits wide", () => {
    assert.deepEqual([0, 42, 59.6, 185, 3599, 3600, 7440, 86399, 86400, 3 * 86400 + 7200].map(formatDuration), [
      "0s",
      "42s",
      "1m00s",
      "3m05s",
      "59m59s",
      "1h00m",
      "2h04m",
      "23h59m",
      "1d00h",
      "3d02h",
    ]);
  });

  it("is empty for a missing or non-finite duration, and never negative", () => {
    assert.equal(formatDuration(null), "");
    assert.equal(formatDuration(Number.NaN), "");
    assert.equal(formatDuration(-5), "0s");
  });
});
