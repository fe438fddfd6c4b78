import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { drawSeed } from "../../src/run/seed.ts";

describe("drawSeed()", () => {
  it("draws whole numbers in [1, 2^31 − 1]: never the 0 sentinel, always an int32", () => {
    const seeds = Array.from({ length: 200 }, drawSeed);
    for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 1 && s <= 2 ** 31 - 1, String(s));
    assert.ok(new Set(seeds).size > 190, "drawn, not fixed");
  });
});
