import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RuntimeAdapter } from "../../src/runtime/adapter.ts";
import { collectText } from "../../src/runtime/collect.ts";
import { runtimeName } from "../../src/runtime/detect.ts";

/**
 * What every runtime adapter owes the code above it (src/runtime/adapter.ts),
 * as tests of one adapter; each runs under its own runtime only and skips,
 * saying so, under the other. No signal is sent to this process: under bun
 * every test file shares it, and live_groups.ts may hold the signals.
 */
export function adapterContract(runtime: "deno" | "bun", make: () => RuntimeAdapter): void {
  const skip = runtimeName() === runtime ? false : `the ${runtime} adapter runs under ${runtime} only`;
  const never = new Promise<void>(() => {});
  const PATH = "/usr/bin:/bin";

  describe(`${runtime}Adapter()`, () => {
    it("starts a child with only the env given, pipes its output back and gives its exit code", { skip }, async () => {
      const child = make().start({
        argv: ["/bin/sh", "-c", 'echo "out ${HOME-unset} $ONLY"; echo err >&2; exit 3'],
        env: { PATH, ONLY: "given" },
        cwd: "/",
        stdout: "pipe",
        stderr: "pipe",
        newSession: false,
      });
      const [out, err, end] = await Promise.all([
        collectText(child.stdout, never),
        collectText(child.stderr, never),
        child.exited,
      ]);
      assert.equal(out.text, "out unset given\n");
      assert.equal(err.text, "err\n");
      assert.deepEqual(end, { exitCode: 3, signal: null });
    });

    it("discards output it is not asked for, and reports a death by signal", { skip }, async () => {
      const a = make();
      const child = a.start({
        argv: ["/bin/sh", "-c", "echo x; exec sleep 30"],
        env: { PATH },
        cwd: undefined,
        stdout: "null",
        stderr: "null",
        newSession: true,
      });
      assert.equal(child.stdout, null);
      a.kill(-child.pid, "SIGTERM"); // its own group (newSession): nothing of it outlives the test
      assert.deepEqual(await child.exited, { exitCode: null, signal: "SIGTERM" });
    });

    it("knows its own pid and whether stderr is a terminal", { skip }, () => {
      const a = make();
      assert.equal(a.pid(), process.pid);
      assert.equal(typeof a.isTerminal(2), "boolean");
    });
  });
}
