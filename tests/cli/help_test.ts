import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commandHelp, rootHelp } from "../../src/cli/help.ts";
import { EXIT, EXIT_CODE_TABLE } from "../../src/exit_codes.ts";

describe("commandHelp()", () => {
  const help = commandHelp({
    meta: { name: "demo", description: "Do a thing" },
    args: {
      RUN_DIR: { type: "positional", description: "The run directory" },
      repo: { type: "string", valueHint: "DIR", description: "The repository", required: true },
      candidate: { type: "string", valueHint: "REF", description: "A ref", required: true, repeatable: true },
      account: { type: "string", valueHint: "NAME", description: "Account", env: "OUTERLOOP_ACCOUNT" },
      "a-rather-long-flag-name": { type: "string", valueHint: "X", description: "Long", defaultText: "none" },
      json: { type: "boolean", description: "Machine-readable output" },
    },
    details: ["A detail."],
    examples: ["outerloop demo /runs/r1"],
  });
  const lines = help.split("\n");

  it("heads with the command and gives its usage: positionals, required flags, then [options]", () => {
    assert.equal(lines[0], "outerloop demo: Do a thing");
    assert.equal(lines[2], "Usage: outerloop demo RUN_DIR --repo DIR --candidate REF [options]");
    assert.ok(help.includes("\nA detail.\n"));
  });

  it("lists each flag with what is required, repeatable, from the environment or the default", () => {
    assert.ok(lines.includes("  --repo DIR                The repository (required)"));
    assert.ok(lines.includes("  --candidate REF           A ref (required; repeatable)"));
    assert.ok(lines.includes("  --account NAME            Account (env OUTERLOOP_ACCOUNT)"));
    assert.ok(lines.includes("  -h, --help                Show this help"));
  });

  it("puts a description too long to sit beside its flag on the next line", () => {
    const i = lines.indexOf("  --a-rather-long-flag-name X");
    assert.ok(i > 0, help);
    assert.equal(lines[i + 1], `${" ".repeat(28)}Long (default none)`);
  });

  it("ends with the examples, and is plain text: no escape codes", () => {
    assert.match(help, /\nExamples:\n {2}outerloop demo \/runs\/r1\n$/);
    assert.ok(!help.includes("\u001b"), "no escape codes");
  });
});

describe("rootHelp()", () => {
  it("lists every command with its summary, the options and the exit codes", () => {
    const help = rootHelp({ name: "outerloop", version: "0.1.0", description: "Measure and decide" }, [
      { name: "measure", summary: "Measure a candidate" },
      { name: "show", summary: "Show a run" },
    ]);
    assert.match(help, /^outerloop 0\.1\.0: Measure and decide\n\nUsage: outerloop COMMAND \[options\]\n/);
    assert.ok(help.includes("\n  measure                   Measure a candidate\n"));
    assert.ok(help.includes("\n  -v, --version             Print the version\n"));
    for (const row of EXIT_CODE_TABLE) {
      assert.ok(help.includes(`\n  ${String(row.code).padEnd(5)}${row.decide.brief}`), `exit ${row.code}:\n${help}`);
    }
    assert.ok(
      help.includes("\n  0    accepted (a round: it named a winner); calibrate: calibrated; other commands: success\n"),
    );
    assert.ok(help.includes("\n  12   the candidate crashed"), "a crash is its own code, not 3");
  });
});

describe("the exit codes in a command's help", () => {
  const codes = (name: string) =>
    commandHelp({ meta: { name, description: "x" }, args: {} }).split("\n").flatMap((l) => {
      const m = /^ {2}(\d+) +\S/.exec(l);
      return m ? [Number(m[1])] : [];
    });

  it("lists every code a deciding command exits with, from the table, 12 among them", () => {
    for (const name of ["measure", "resume", "wait"]) {
      assert.deepEqual(codes(name), EXIT_CODE_TABLE.map((r) => r.code), name);
    }
    assert.ok(
      commandHelp({ meta: { name: "wait", description: "x" }, args: {} }).includes(
        `\n  12   ${EXIT_CODE_TABLE.find((r) => r.code === EXIT.crashed)!.decide.brief}\n`,
      ),
    );
  });

  it("lists calibrate's codes and another command's, without the verdicts", () => {
    assert.deepEqual(codes("calibrate"), [0, 75, 3, 130, 143, 4, 2, 1]);
    assert.deepEqual(codes("show"), [0, 130, 143, 4, 2, 1]);
    assert.match(commandHelp({ meta: { name: "show", description: "x" }, args: {} }), /\n {2}0 {4}success\n/);
  });
});
