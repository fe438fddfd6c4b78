import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { statusCommand } from "../../../src/cli/commands/status.ts";
import { parseArgs } from "../../../src/cli/flags.ts";

const parse = (argv: string[], env: Record<string, string> = {}) =>
  statusCommand.parse(parseArgs("status", statusCommand.args, argv), env);

describe("status: parse", () => {
  it("takes a job id of digits, the backend and --json", () => {
    assert.deepEqual(parse(["42", "--compute", "sge", "--json"]), {
      jobId: "42",
      mode: "sge",
      cluster: "",
      json: true,
    });
  });

  it("refuses anything but digits as a job id", () => {
    assert.throws(() => parse(["42_1"]), /Not a job id: "42_1" \(expected digits only\)/);
  });
});
