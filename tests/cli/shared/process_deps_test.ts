import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { processDeps } from "../../../src/cli/shared/process_deps.ts";
import { selfCommand } from "../../../src/runtime/self.ts";

describe("processDeps()", () => {
  it("are this process's: its environment, the real clock, its own command line, the real backends", async () => {
    const d = processDeps();
    assert.equal(d.env, process.env);
    assert.equal(d.now, Date.now);
    assert.deepEqual(d.self(), selfCommand());
    assert.deepEqual(await d.compute("local").activeJobNames(), []);
    assert.equal(typeof d.stderrIsTerminal(), "boolean");
  });

  it("sleep resolves at once when aborted, and an interrupt handler is removable", async () => {
    const d = processDeps();
    const c = new AbortController();
    c.abort();
    await d.sleep(60_000, c.signal);
    const remove = d.onInterrupt(() => {});
    remove();
  });
});
