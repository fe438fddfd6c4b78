import assert from "node:assert/strict";
import { BadInputError } from "../../src/errors.ts";
import { describe, it } from "node:test";
import { BadNameError, MAX_NAME_BYTES, validateName } from "../../src/contract/names.ts";

function refusal(kind: "benchmark" | "sibling" | "measure", name: string): BadNameError {
  try {
    validateName(kind, name);
  } catch (e) {
    assert.ok(e instanceof BadNameError, `expected BadNameError, got ${String(e)}`);
    return e;
  }
  assert.fail(`${JSON.stringify(name)} was accepted`);
}

describe("validateName()", () => {
  it("accepts the names real contracts use, including non-ASCII and single dots", () => {
    for (
      const name of ["tsp", "knapsack_v2", "vrp-100", "a.b", ".hidden", "x+y", "café", "ベンチ😀", "with space", "a-"]
    ) {
      assert.doesNotThrow(() => validateName("benchmark", name), name);
    }
    assert.doesNotThrow(() => validateName("benchmark", "é".repeat(MAX_NAME_BYTES / 2)));
  });

  const cases: [string, string, RegExp][] = [
    ["an empty name", "", /it is empty/],
    ["a slash", "a/b", /contains "\/"/],
    ["a leading slash", "/etc", /contains "\/"/],
    ["a bare ..", "..", /contains "\.\."/],
    ["a .. inside", "a..b", /contains "\.\."/],
    ["a pipe, which breaks --parsable2 output", "a|b", /contains "\|"/],
    ["a NUL", "a\0b", /control character U\+0000/],
    ["a newline", "a\nb", /control character U\+000A/],
    ["a carriage return", "a\rb", /control character U\+000D/],
    ["a tab", "a\tb", /control character U\+0009/],
    ["a DEL", "a\x7fb", /control character U\+007F/],
    ["a leading dash, which reads as an option", "-rf", /starts with "-"/],
    ["a lone surrogate, which has no UTF-8 encoding", "a\ud800", /lone surrogate/],
    ["a name too long for the derived file names", "x".repeat(MAX_NAME_BYTES + 1), /is 129 bytes long/],
    ["a name too long in UTF-8 bytes though short in characters", "😀".repeat(33), /is 132 bytes long/],
  ];
  for (const [what, name, problem] of cases) {
    it(`refuses ${what}`, () => {
      const e = refusal("sibling", name);
      assert.match(e.message, problem);
      assert.equal(e.kind, "sibling");
      assert.equal(e.value, name);
    });
  }

  it("names the kind, quotes the value and says what is allowed", () => {
    const e = refusal("benchmark", "a/b\n");
    assert.ok(e instanceof BadInputError);
    assert.equal(e.name, "BadNameError");
    assert.equal(
      e.message,
      'Invalid benchmark name "a/b\\n": it contains "/"; use 1 to 128 bytes not starting with "-" ' +
        'and free of "/", "..", "|" and control characters',
    );
  });
});
