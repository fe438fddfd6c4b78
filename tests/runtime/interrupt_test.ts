import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { interruptHandled, onInterrupt, sleep } from "../../src/runtime/interrupt.ts";

describe("onInterrupt() and interruptHandled()", () => {
  it("an interrupt is handled while a handler is installed, and not once it is removed (twice is once)", () => {
    const before = interruptHandled();
    const remove = onInterrupt(() => {});
    assert.equal(interruptHandled(), true);
    remove();
    remove();
    assert.equal(interruptHandled(), before);
  });
});

describe("sleep()", () => {
  it("resolves after its time", async () => {
    const t = Date.now();
    await sleep(30);
    assert.ok(Date.now() - t >= 25);
  });

  it("resolves at once when its signal aborts, or was aborted already", async () => {
    const c = new AbortController();
    const t = Date.now();
    const slept = sleep(10_000, c.signal);
    c.abort();
    await slept;
    const pre = new AbortController();
    pre.abort();
    await sleep(10_000, pre.signal);
    assert.ok(Date.now() - t < 1000);
  });
});
