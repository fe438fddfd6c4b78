import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BadInputError } from "../../src/errors.ts";
import { type Args, parseArgs } from "../../src/cli/flags.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";
import { tempDir } from "../helpers/temp.ts";

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

  it("reads a boolean flag whose name starts with no- as given, not as a negation", () => {
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

  it("refuses an unknown flag close to a known one, saying which was meant", () => {
    const withRunDir: Args = { ...args, "run-dir": { type: "string", description: "run dir" } };
    const refusedBy = (raw: string[]): string => {
      try {
        parseArgs("demo", withRunDir, raw);
      } catch (err) {
        assert.ok(err instanceof BadInputError, String(err));
        return err.message;
      }
      throw new Error(`parseArgs accepted ${JSON.stringify(raw)}`);
    };
    assert.equal(
      refusedBy(["d", "--base", "x", "--jsn"]),
      'Unknown option "--jsn" for "outerloop demo": did you mean "--json"? see "outerloop demo --help"',
    );
    assert.match(
      refusedBy(["d", "--bsae=x"]),
      /^Unknown option "--bsae" for "outerloop demo": did you mean "--base"\?/,
    );
    assert.match(refusedBy(["d", "--base", "x", "--rundir", "r"]), /did you mean "--run-dir"\?/);
    // a positional's name is no flag to suggest
    assert.match(refusedBy(["d", "--base", "x", "--RUN-DIR", "r"]), /did you mean "--run-dir"\?/);
    assert.equal(
      refusedBy(["d", "--base", "x", "--frobnicate"]),
      'Unknown option "--frobnicate" for "outerloop demo": see "outerloop demo --help"',
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

describe("parseArgs(): a value never taken from the next flag", () => {
  it("refuses a value flag followed by another flag, by --, or by -h asking for help", () => {
    assert.equal(
      refusal(["d", "--base", "--json"]),
      "--base needs a value (REF); a value starting with -- goes inline: --base=VALUE",
    );
    assert.match(refusal(["d", "--base", "a", "--extra", "--json"]), /^--extra needs a value;/);
    assert.match(refusal(["d", "--base", "--", "x"]), /^--base needs a value \(REF\);/);
    assert.match(refusal(["d", "--base", "--unknown"]), /^--base needs a value/);
    // -h stays the help: `--base -h` shows it rather than taking "-h" as the ref
    assert.equal(parse(["d", "--base", "-h"]).help, true);
  });

  it("takes --x=--y as the literal value, and a value with a single leading dash after a space", () => {
    const a = parse([
      "d",
      "--base=--no-x",
      "--extra=--",
      "--extra=--json",
      "--extra",
      "-v",
      "--extra",
      "-5",
      "--extra",
      "-",
    ]);
    assert.equal(a.value("base"), "--no-x");
    assert.deepEqual(a.values("extra"), ["--", "--json", "-v", "-5", "-"]);
    assert.equal(a.on("json"), false);
  });

  it("refuses -5 standing alone (citty reads it as a short option), pointing to --; reads -- -5 as positional", () => {
    assert.equal(
      refusal(["-5", "--base", "a"]),
      'Unknown option "-5" for "outerloop demo": see "outerloop demo --help"; an argument that starts with - goes ' +
        "after --: outerloop demo -- -5",
    );
    assert.equal(parse(["--base", "a", "--", "-5"]).positional["RUN_DIR"], "-5");
  });

  it("reads everything after -- as positional, flags or not", () => {
    const a = parse(["--base", "a", "--", "--json"]);
    assert.equal(a.positional["RUN_DIR"], "--json");
    assert.equal(a.on("json"), false);
  });
});

describe("parseArgs(): each flag once", () => {
  it("refuses a boolean given twice", () => {
    assert.equal(refusal(["d", "--base", "a", "--json", "--json"]), "--json is given twice: give it once");
  });

  it("keeps the last value of a repeatable flag as its value, and every value in order", () => {
    const a = parse(["d", "--base", "a", "--extra", "1", "--extra", "2"]);
    assert.equal(a.value("extra"), "2");
    assert.deepEqual(a.values("extra"), ["1", "2"]);
    assert.deepEqual(parse(["d", "--base", "a"]).values("extra"), []);
  });

  it("reads no flag it does not declare, of either kind", () => {
    const a = parse(["d", "--base", "a", "--json"]);
    assert.equal(a.value("json"), undefined);
    assert.deepEqual(a.values("base"), ["a"]);
    assert.equal(a.on("toString"), false);
    assert.equal(a.value("constructor"), undefined);
  });
});

describe("parseArgs(): what citty's parser reads its own way is refused or read as written", () => {
  it("refuses citty's camelCase alias of a flag and a negation of a boolean it does not declare", () => {
    const withDash: Args = { ...args, "dry-run": { type: "boolean", description: "dry" } };
    assert.match(
      (() => {
        try {
          parseArgs("demo", withDash, ["d", "--base", "a", "--dryRun"]);
        } catch (err) {
          return (err as Error).message;
        }
        return "accepted";
      })(),
      /^Unknown option "--dryRun"/,
    );
    assert.equal(parseArgs("demo", withDash, ["d", "--base", "a", "--dry-run"]).on("dry-run"), true);
  });

  it("refuses a boolean's inline false and a value flag at the end, but keeps an empty inline value", () => {
    assert.equal(refusal(["d", "--base", "a", "--json=false"]), '--json takes no value (got "false")');
    assert.equal(refusal(["d", "--base", "a", "--extra"]), "--extra needs a value");
    assert.equal(parse(["d", "--base="]).value("base"), "");
  });

  it("refuses a group of short options and --help given a value, naming the word", () => {
    assert.match(refusal(["d", "--base", "a", "-jx"]), /^Unknown option "-jx"/);
    assert.match(refusal(["d", "--base", "a", "--help=x"]), /^Unknown option "--help"/);
  });

  it("keeps every value of a repeatable flag, inline or not, and a single-dash word as a value", () => {
    const a = parse(["d", "--extra", "-x", "--base", "a", "--extra=", "--extra", "b c"]);
    assert.deepEqual(a.values("extra"), ["-x", "", "b c"]);
    assert.equal(a.value("extra"), "b c");
  });

  it("asks for help only before --: after it, -h is an argument", () => {
    assert.equal(parse(["--base", "a", "--", "-h"]).help, false);
    assert.equal(parse(["--base", "a", "--", "-h"]).positional["RUN_DIR"], "-h");
  });
});

describe("outerloop as a process: a refused line reaches no scheduler", () => {
  const main = join(import.meta.dirname!, "..", "..", "src", "main.ts");
  const fakebin = join(import.meta.dirname!, "..", "fixtures", "fakebin");
  /** `outerloop submit …` over the fake scheduler, which appends each call's argv to the log it returns. */
  async function submit(...flags: string[]) {
    const log = join(tempDir("flags-sbatch-"), "calls.log");
    const r = await spawn({
      argv: [...selfRunArgv(main), "submit", "--compute", "slurm", "--job-name", "j", "--command", "true", ...flags],
      env: {
        PATH: `${fakebin}:/usr/bin:/bin`,
        HOME: tempDir("flags-home-"),
        OUTERLOOP_FAKE_SLURM_LOG: log,
        OUTERLOOP_FAKE_SLURM_OUT: "42\\n",
      },
      timeoutMs: 60_000,
    });
    return { ...r, calls: existsSync(log) ? readFileSync(log, "utf8") : "" };
  }

  it("refuses --output --dry-run with exit 2, and calls no sbatch", async () => {
    const r = await submit("--output", "--dry-run");
    assert.equal(r.exitCode, 2, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^outerloop: error: --output needs a value \(FILE\); a value starting with -- goes inline/);
    assert.equal(r.calls, "");
  });

  it("refuses --dry-run given twice with exit 2, and calls no sbatch", async () => {
    const r = await submit("--dry-run", "--dry-run");
    assert.equal(r.exitCode, 2, r.stderr);
    assert.equal(r.stderr, "outerloop: error: --dry-run is given twice: give it once\n");
    assert.equal(r.calls, "");
  });

  it("does call the fake sbatch for the line written right (the fake is on the path it reads)", async () => {
    const r = await submit("--output", "/dev/null");
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, "42\n");
    assert.match(r.calls, /^sbatch \[--parsable\] \[--job-name=j\]/);
  });
});
