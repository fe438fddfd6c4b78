import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { shorten } from "../../src/text/shorten.ts";

describe("shorten()", () => {
  it("keeps a short text, on one line", () => {
    assert.equal(shorten("add momentum features", 40), "add momentum features");
    assert.equal(shorten("a\tb\nc", 40), "a b c");
  });

  it("cuts a long text to at most max characters, at a word near the end, with an ellipsis", () => {
    const cause = 'eval exited with code 1: Traceback (most recent call last): File "train.py", line 12';
    const s = shorten(cause, 40);
    assert.ok([...s].length <= 40, s);
    assert.equal(s, "eval exited with code 1: Traceback…");
    assert.equal(shorten("x".repeat(100), 10), "xxxxxxxxx…", "no word to cut at: a hard cut");
  });

  it("never splits a surrogate pair", () => {
    assert.equal(shorten("😀".repeat(20), 5), "😀😀😀😀…");
  });
});
