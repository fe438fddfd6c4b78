import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { selfCommand } from "../../src/runtime/self.ts";

describe("selfCommand()", () => {
  it("under deno run or bun run: the runtime itself, then its run and the absolute entry file", () => {
    const argv = selfCommand();
    assert.equal(argv[0], process.execPath);
    assert.equal(argv[1], "run");
    const entry = argv.at(-1)!;
    assert.ok(entry.startsWith("/") && existsSync(entry), `an absolute entry that exists: ${argv.join(" ")}`);
  });
});
