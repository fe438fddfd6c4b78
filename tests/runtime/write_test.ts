import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runtimeName } from "../../src/runtime/detect.ts";

const WRITE = join(import.meta.dirname!, "..", "..", "src", "runtime", "write.ts");

/** Runs `code` in a fresh process of this runtime (its stdout a pipe) and gives what it wrote there. */
function child(code: string): string {
  const argv = runtimeName() === "deno" ? ["eval", code] : ["-e", code];
  return execFileSync(process.execPath, argv, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("writeFd()", () => {
  it("writes every byte of a text larger than a pipe holds, in one call", () => {
    const code = `import { writeFd } from ${JSON.stringify(WRITE)}; writeFd(1, "é".repeat(1 << 20));`;
    const stdout = child(code);
    assert.equal(stdout.length, 1 << 20);
    assert.equal(stdout, "é".repeat(1 << 20));
  });
});
