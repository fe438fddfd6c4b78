import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commandHelp, rootHelp } from "../../src/cli/help.ts";

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
    assert.match(help, /Exit codes: 0 accepted \/ success, 10 rejected, 11 inconclusive, 75 parked/);
  });
});
