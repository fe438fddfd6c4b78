import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { measureCommand } from "../../../src/cli/commands/measure.ts";
import { parseArgs } from "../../../src/cli/flags.ts";

// Measuring end to end (a run dir frozen, dispatched, parked) is in tests/cli/commands/commands_test.ts.

const BASE = ["--repo", "/r", "--base", "main", "--contract", "c.json", "--run-dir", "/runs/r1"];
const parse = (argv: string[]) =>
  measureCommand.parse(parseArgs("measure", measureCommand.args, [...BASE, ...argv]), {});

describe("measure: parse", () => {
  it("a candidate given once is one candidate; given K times, a round", () => {
    assert.deepEqual(parse(["--candidate", "c1"]).request.candidates, ["c1"]);
    assert.deepEqual(parse(["--candidate", "c1", "--candidate", "c2", "--candidate", "c3"]).request.candidates, [
      "c1",
      "c2",
      "c3",
    ]);
  });

  it("--dry-run and --json; no wait without --wait", () => {
    const o = parse(["--candidate", "c1", "--dry-run", "--json"]);
    assert.deepEqual([o.dryRun, o.json, o.wait], [true, true, null]);
  });

  it("--wait with its timing; --poll or --timeout without --wait is refused", () => {
    assert.deepEqual(parse(["--candidate", "c1", "--wait", "--poll", "30"]).wait, { pollS: 30, timeoutS: null });
    assert.throws(() => parse(["--candidate", "c1", "--timeout", "60"]), /--timeout goes with --wait/);
  });
});
