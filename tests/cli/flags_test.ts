import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArgs as cittyParse } from "citty";
import { BadInputError } from "../../src/errors.ts";
import { type Args, checkArgs, parseArgs } from "../../src/cli/flags.ts";

const args: Args = {
  RUN_DIR: { type: "positional", description: "a dir" },
  base: { type: "string", valueHint: "REF", description: "base", required: true },
  extra: { type: "string", description: "extra", repeatable: true },
  json: { type: "boolean", description: "json" },
};
const parse = (raw: string[]) => parseArgs("demo", args, raw);

const refusal = (raw: string[]) => {
  try {
    parse(raw);
  } catch (err) {
    assert.ok(err instanceof BadInputError, String(err));
    return err.message;
  }
  throw new Error(`parseArgs accepted ${JSON.stringify(raw)}`);
};

describe("parseArgs()", () => {
  it("reads --flag value, --flag=value, booleans, repeatable flags and the positional", () => {
    const a = parse(["dir", "--base", "main", "--extra=a", "--extra", "-b", "--json"]);
    assert.equal(a.positional["RUN_DIR"], "dir");
    assert.equal(a.value("base"), "main");
    assert.deepEqual(a.values("extra"), ["a", "-b"]);
    assert.equal(a.on("json"), true);
    assert.equal(a.value("missing"), undefined);
    assert.equal(a.on("base"), false);
    assert.deepEqual(a.raw, ["dir", "--base", "main", "--extra=a", "--extra", "-b", "--json"]);
  });

  it("reads a boolean flag whose name starts with no- as given (citty would take --no-x as x = false)", () => {
    const withNo: Args = { ...args, "no-arrays": { type: "boolean", description: "off" } };
    assert.equal(parseArgs("demo", withNo, ["d", "--base", "m", "--no-arrays"]).on("no-arrays"), true);
    assert.equal(parseArgs("demo", withNo, ["d", "--base", "m"]).on("no-arrays"), false);
  });

  it("takes everything after -- as positional", () => {
    assert.equal(parse(["--base", "x", "--", "--odd-dir"]).positional["RUN_DIR"], "--odd-dir");
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

  it("refuses a positional's name given as a flag, a short option and a negated boolean", () => {
    assert.match(refusal(["d", "--base", "a", "--RUN_DIR=x"]), /^Unknown option "--RUN_DIR"/);
    assert.match(refusal(["d", "--base", "a", "-j"]), /^Unknown option "-j"/);
    assert.match(refusal(["d", "--base", "a", "--no-json"]), /^Unknown option "--no-json"/);
  });

  it("answers --help even when the rest of the line is wrong", () => {
    assert.equal(parse(["--nope", "-h"]).help, true);
  });
});

describe("checkArgs() layered on citty's parser", () => {
  it("refuses what citty 0.2.2 passes silently: unknown, repeated, valueless and negated flags", () => {
    // what citty alone makes of these lines: each would reach a command as a plausible value
    const citty = (raw: string[]) => ({ ...cittyParse(raw, args) });
    assert.equal(citty(["d", "--base=a", "--jsn", "--bogus=3"])["bogus"], "3");
    assert.equal(citty(["d", "--base=a", "--base=b"])["base"], "b");
    assert.equal(citty(["d", "--base"])["base"], "");
    assert.equal(citty(["d", "--base=a", "--json=yes"])["json"], true);
    assert.equal(citty(["d", "--base=a", "--no-json"])["json"], false);
    for (const raw of [["d", "--base=a", "--jsn"], ["d", "--base=a", "--base=b"], ["d", "--base"]]) {
      assert.throws(() => checkArgs("demo", args, raw), BadInputError, JSON.stringify(raw));
    }
  });

  it("hands citty a line it reads as the check did: values that look like flags, -5, -- and --no-x", () => {
    const raw = ["-5", "--base", "--no-x", "--extra", "--", "--extra=--json", "--json"];
    const checked = checkArgs("demo", args, raw);
    assert.deepEqual(checked.argv, ["--base=--no-x", "--extra=--", "--extra=--json", "--json", "--", "-5"]);
    const a = parse(raw);
    assert.deepEqual(
      [a.positional["RUN_DIR"], a.value("base"), a.values("extra"), a.on("json")],
      ["-5", "--no-x", ["--", "--json"], true],
    );
  });
});
