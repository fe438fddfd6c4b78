import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runtimeName } from "../../src/runtime/detect.ts";
import { runtime } from "../../src/runtime/runtime.ts";

describe("runtime()", () => {
  it("is the adapter of the runtime we run on, chosen once", () => {
    const a = runtime();
    assert.equal(runtime(), a);
    assert.ok(runtimeName() === "deno" || runtimeName() === "bun");
    assert.equal(a.pid(), process.pid);
  });
});
