import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { arrayOf, isoTimestamp, num, object, optional, recordOf, sha, str, whole } from "../../src/schema/check.ts";

describe("shape checks", () => {
  it("object: exactly the keys, the optional ones possibly absent", () => {
    const c = object({ a: str, b: optional(num) });
    assert.ok(c({ a: "x" }));
    assert.ok(c({ a: "x", b: 1 }));
    assert.ok(!c({ a: "x", b: "1" }));
    assert.ok(!c({ a: "x", z: 1 }));
    assert.ok(!c({ b: 1 }));
    for (const v of [null, [], "x", 1]) assert.ok(!c(v));
  });

  it("refuses a __proto__ key, which zod's copy would turn into a prototype", () => {
    assert.ok(!recordOf(num)(JSON.parse('{"__proto__": 1}')));
    assert.ok(!object({ a: str })(JSON.parse('{"a": "x", "__proto__": {}}')));
  });

  it("numbers: finite; whole numbers: safe integers from a minimum", () => {
    assert.ok(num(-1.5) && !num(Infinity) && !num(NaN) && !num("1"));
    assert.ok(whole(1)(1) && !whole(1)(0) && !whole(0)(1.5) && !whole(0)(2 ** 53));
    assert.ok(arrayOf(whole(0))([0, 1]) && !arrayOf(whole(0))([0, -1]));
  });

  it("timestamps: only toISOString's form, and only a real instant", () => {
    assert.ok(isoTimestamp("2024-02-29T23:59:59.999Z"));
    for (const t of ["2025-02-29T00:00:00.000Z", "2025-01-01T24:00:00.000Z", "2025-01-01T00:00:00Z", "x", 1]) {
      assert.ok(!isoTimestamp(t), String(t));
    }
  });

  it("shas: 40 or 64 lowercase hex digits", () => {
    assert.ok(sha("a".repeat(40)) && sha("b".repeat(64)) && !sha("A".repeat(40)) && !sha("a".repeat(41)));
  });
});
