import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { outLine } from "../../../src/cli/shared/io.ts";

describe("outLine()", () => {
  it("writes one line to stdout, adding the newline only when missing", () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => assert.fail("nothing on stderr") };
    outLine(io, "a");
    outLine(io, "b\n");
    assert.deepEqual(out, ["a\n", "b\n"]);
  });
});
