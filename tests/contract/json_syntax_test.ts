import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonSyntaxError } from "../../src/contract/json_syntax.ts";

describe("jsonSyntaxError()", () => {
  it("is null for JSON, and agrees with JSON.parse on every text here", () => {
    const texts = [
      '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}}',
      " [] ",
      '{"a": 1,}',
      "[1,]",
      "{'a': 1}",
      '{"a" 1}',
      '{"a": 01}',
      '{"a": 1.}',
      '{"a": -}',
      '{"a": "x\\q"}',
      '{"a": "x',
      '{"a": 1} {}',
      "",
      '{"a": "\t"}',
    ];
    for (const t of texts) {
      let parses = true;
      try {
        JSON.parse(t);
      } catch {
        parses = false;
      }
      assert.equal(jsonSyntaxError(t) === null, parses, t);
    }
  });

  it("gives the line and column (from 1, in characters) and what is wrong there", () => {
    assert.deepEqual(jsonSyntaxError('{\n  "name": "b",\n  "metric": "t",\n}\n'), {
      line: 4,
      column: 1,
      problem: 'expected a key in double quotes, found "}" (JSON allows no comma before })',
    });
    assert.deepEqual(jsonSyntaxError("{\"é\": 1, 'a': 2}"), {
      line: 1,
      column: 10,
      problem: `expected a key in double quotes, found "'"`,
    });
    assert.deepEqual(jsonSyntaxError('{\r\n"a": x}'), {
      line: 2,
      column: 6,
      problem: 'expected a value, found "x"',
    });
    assert.deepEqual(jsonSyntaxError('{"a": 1'), {
      line: 1,
      column: 8,
      problem: 'expected "," or "}" after a value, found the end of the file',
    });
    assert.deepEqual(jsonSyntaxError('{"a": "open'), { line: 1, column: 7, problem: "a string that is never closed" });
  });
});
