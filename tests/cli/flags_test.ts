import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BadInputError } from "../../src/errors.ts";
import { type CommandSpec, parseArgs } from "../../src/cli/flags.ts";

const spec: CommandSpec = {
  name: "demo",
  summary: "a demo",
  positionals: [{ name: "RUN_DIR", description: "a dir" }],
  flags: {
    base: { kind: "string", hint: "REF", description: "base", required: true },
    extra: { kind: "string", description: "extra", repeatable: true },
    json: { kind: "boolean", description: "json" },
  },
};

const refusal = (raw: string[]) => {
  try {
    parseArgs(spec, raw);
  } catch (err) {
    assert.ok(err instanceof BadInputError, String(err));
    return err.message;
  }
  throw new Error(`parseArgs accepted ${JSON.stringify(raw)}`);
};

describe("parseArgs()", () => {
  it("reads --flag value, --flag=value, booleans, repeatable flags and the positional", () => {
    const a = parseArgs(spec, ["dir", "--base", "main", "--extra=a", "--extra", "-b", "--json"]);
    assert.equal(a.positional["RUN_DIR"], "dir");
    assert.equal(a.value("base"), "main");
    assert.deepEqual(a.values("extra"), ["a", "-b"]);
    assert.equal(a.on("json"), true);
    assert.equal(a.value("missing"), undefined);
  });

  it("takes everything after -- as positional", () => {
    assert.equal(parseArgs(spec, ["--base", "x", "--", "--odd-dir"]).positional["RUN_DIR"], "--odd-dir");
  });

  it("refuses an unknown flag, naming it and the help", () => {
    assert.equal(
      refusal(["d", "--base", "x", "--acount=a"]),
      'Unknown option "--acount" for "outerloop demo": see "outerloop demo --help"',
    );
  });

  it("refuses a single-valued flag given twice instead of taking the last", () => {
    assert.equal(refusal(["d", "--base", "a", "--base=b"]), '--base is given twice ("a" and "b"): give it once');
  });

  it("refuses a value given to a boolean and a string flag without its value", () => {
    assert.equal(refusal(["d", "--base", "a", "--json=yes"]), '--json takes no value (got "yes")');
    assert.equal(refusal(["d", "--base"]), "--base needs a value (REF)");
  });

  it("refuses an extra or a missing positional, and a missing required flag", () => {
    assert.match(refusal(["d", "e", "--base", "a"]), /^Unexpected argument "e": "outerloop demo" takes RUN_DIR;/);
    assert.match(refusal(["--base", "a"]), /^Missing RUN_DIR: see/);
    assert.match(refusal(["d"]), /^Missing --base REF: see/);
  });

  it("answers --help even when the rest of the line is wrong", () => {
    assert.equal(parseArgs(spec, ["--nope", "-h"]).help, true);
  });
});
