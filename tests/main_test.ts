import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { spawn } from "../src/runtime/spawn.ts";
import { VERSION } from "../src/version.ts";
import { selfRunArgv } from "./helpers/self_runtime.ts";

const MAIN = join(import.meta.dirname!, "..", "src", "main.ts");
const run = (...args: string[]) =>
  spawn({ argv: [...selfRunArgv(MAIN), ...args], env: { PATH: "/usr/bin:/bin" }, timeoutMs: 60_000 });

describe("the entry point", () => {
  it("answers --version and -v itself, as runCli does: the version on stdout, exit 0", async () => {
    for (const flag of ["--version", "-v"]) {
      const r = await run(flag);
      assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, VERSION + "\n", ""], flag);
    }
  });

  it("hands every other line to runCli and exits with its code", async () => {
    const none = await run();
    assert.equal(none.exitCode, 2);
    assert.match(none.stderr, /^outerloop \S+: /);
    const unknown = await run("nope");
    assert.equal(unknown.exitCode, 2);
    assert.match(unknown.stderr, /^outerloop: error: Unknown command "nope"/);
  });
});
