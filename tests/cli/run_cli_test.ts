import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../../src/cli/run_cli.ts";
import type { CliDeps } from "../../src/cli/shared/io.ts";
import { commandExitCodes, rootExitCodes } from "../../src/cli/help.ts";
import { EXIT, exitCodesOf } from "../../src/exit_codes.ts";
import { VERSION } from "../../src/version.ts";
import { cli } from "../helpers/cli.ts";

describe("runCli()", () => {
  it("--version prints the version and loads no command", async () => {
    let out = "";
    const deps = { io: { stdout: (t: string) => void (out += t), stderr: () => {} } } as unknown as CliDeps;
    assert.equal(await runCli(["--version"], deps), EXIT.ok);
    assert.equal(out, `${VERSION}\n`);
  });

  it("the root help: on stdout for --help (exit 0), on stderr with no command (exit 2)", async () => {
    const help = await cli(["--help"]);
    assert.equal(help.code, EXIT.ok);
    assert.match(help.stdout, /^outerloop .*\n\nUsage: outerloop COMMAND \[options\]/);
    const none = await cli([]);
    assert.deepEqual([none.code, none.stdout], [EXIT.badInput, ""]);
    assert.match(none.stderr, /Usage: outerloop COMMAND/);
  });

  it("an unknown command is one line on stderr naming the known ones, exit 2", async () => {
    const r = await cli(["frobnicate"]);
    assert.equal(r.code, EXIT.badInput);
    assert.match(r.stderr, /^outerloop: error: Unknown command "frobnicate": expected one of .*measure.*\n$/);
  });

  it("an unknown command close to a known one says which was meant, still one line, exit 2", async () => {
    for (
      const [typo, meant] of [["meassure", "measure"], ["shwo", "show"], ["run", "runs"], ["calibrte", "calibrate"]]
    ) {
      const r = await cli([typo!]);
      assert.equal(r.code, EXIT.badInput, typo);
      assert.match(
        r.stderr,
        new RegExp(
          `^outerloop: error: Unknown command "${typo}": did you mean "${meant}"\\? expected one of .*measure.*\n$`,
        ),
      );
    }
  });

  it("a command's --help is its own help", async () => {
    const r = await cli(["status", "--help"]);
    assert.equal(r.code, EXIT.ok);
    assert.match(r.stdout, /^outerloop status: /);
  });

  it("a user's mistake is one line on stderr; with --json also one object on stdout", async () => {
    const r = await cli(["status", "12x"]);
    assert.equal(r.code, EXIT.badInput);
    assert.equal(r.stderr, 'outerloop: error: Not a job id: "12x" (expected digits only)\n');
    const j = await cli(["status", "12x", "--json"]);
    assert.equal(j.code, EXIT.badInput);
    assert.equal(j.stdout.trimEnd().split("\n").length, 1);
    assert.equal(typeof JSON.parse(j.stdout), "object");
  });

  it("every help lists the exit codes its command gives, from the table: 12 in measure's, resume's and wait's", async () => {
    const root = await cli(["--help"]);
    assert.ok(root.stdout.includes(rootExitCodes().join("\n") + "\n"), root.stdout);
    for (const name of ["measure", "resume", "wait", "calibrate", "show", "runs", "report", "submit", "status"]) {
      const r = await cli([name, "--help"]);
      assert.equal(r.code, EXIT.ok, name);
      assert.ok(r.stdout.includes("\n" + commandExitCodes(name).join("\n") + "\n"), `${name}:\n${r.stdout}`);
      const crash = exitCodesOf(name).some((c) => c.code === EXIT.crashed);
      assert.equal(crash, ["measure", "resume", "wait"].includes(name), name);
      assert.equal(/\n {2}12 {3}the candidate crashed/.test(r.stdout), crash, name);
    }
  });
});
