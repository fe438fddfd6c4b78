import assert from "node:assert/strict";
import { hostname } from "node:os";
import { describe, it } from "node:test";
import { hostName } from "../../src/runtime/host.ts";

describe("hostName()", () => {
  it("is node:os's host name, loaded on first use", () => {
    assert.equal(hostName(), hostname());
    assert.equal(hostName(), hostName());
  });
});
