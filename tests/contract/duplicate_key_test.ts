import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstDuplicateKey } from "../../src/contract/duplicate_key.ts";

describe("firstDuplicateKey()", () => {
  it("finds a key given twice at the top, or in a nested object, with its path", () => {
    assert.deepEqual(firstDuplicateKey('{"a": 1, "b": 2, "a": 3}'), { key: "a", path: "" });
    assert.deepEqual(
      firstDuplicateKey('{"s": [{"n": 1}, {"n": 2, "t": 1, "t": 2}]}'),
      { key: "t", path: "s[1]" },
    );
    assert.deepEqual(firstDuplicateKey('{"a b": {"x": [[], {"k": 0, "k": 1}]}}'), { key: "k", path: '["a b"].x[1]' });
  });

  it("compares keys as JSON reads them: an escape is the character it stands for", () => {
    assert.deepEqual(firstDuplicateKey('{"ab": 1, "a\\u0062": 2}'), { key: "ab", path: "" });
  });

  it("finds none where the same key is in different objects, or a key-like text is inside a string", () => {
    assert.equal(firstDuplicateKey('[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]'), null);
    assert.equal(firstDuplicateKey('{"c": "\\"a\\": 1, {\\"a\\": [", "a": "}", "d": ["a", "a"]}'), null);
    assert.equal(firstDuplicateKey("[1, 2, 3]"), null);
  });
});
