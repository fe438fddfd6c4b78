import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hexDigest, randomHex, randomInteger } from "../../src/runtime/digest.ts";

describe("hexDigest()", () => {
  it("gives the standard digests of the UTF-8 bytes, under either runtime", () => {
    assert.equal(hexDigest("sha1", "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert.equal(hexDigest("sha256", "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(hexDigest("sha256", "é"), hexDigest("sha256", "\u00e9"));
    assert.notEqual(hexDigest("sha256", "é"), hexDigest("sha256", "e\u0301"), "bytes, not normalized text");
  });
});

describe("randomHex() and randomInteger()", () => {
  it("random bytes as lower-case hex, two digits a byte", () => {
    assert.match(randomHex(6), /^[0-9a-f]{12}$/);
    assert.notEqual(randomHex(16), randomHex(16));
  });

  it("integers in [min, max), every value reachable", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const x = randomInteger(3, 7);
      assert.ok(Number.isInteger(x) && x >= 3 && x < 7, String(x));
      seen.add(x);
    }
    assert.deepEqual([...seen].sort(), [3, 4, 5, 6]);
  });

  it("refuses an empty or too wide range", () => {
    assert.throws(() => randomInteger(5, 5), RangeError);
    assert.throws(() => randomInteger(0, 2 ** 33), RangeError);
  });
});
