import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { InvalidJobIdError } from "../src/compute/compute.ts";
import { ComputeError, LocalComputeError, SlurmError, SlurmQueryError } from "../src/compute/errors.ts";
import { EvalError } from "../src/dispatch/eval_error.ts";
import { GitError } from "../src/dispatch/pin.ts";
import { BadInputError } from "../src/errors.ts";
import { BadNameError } from "../src/contract/names.ts";
import { NoGpuLaneError } from "../src/measure/placement.ts";
import { exitCodeFor } from "../src/cli/shared/errors.ts";
import { ContractError, parseContract } from "../src/contract/contract.ts";
import { decideRound } from "../src/verdict/round.ts";
import { RunLockedError } from "../src/run/lock.ts";
import { RunRecordError } from "../src/rundir/run_record.ts";
import { CommandNotFoundError } from "../src/runtime/spawn_types.ts";
import {
  EXIT,
  EXIT_CODE_TABLE,
  EXIT_OF,
  exitCodesMarkdown,
  exitCodesOf,
  exitGroupOf,
  VERDICT_EXIT,
} from "../src/exit_codes.ts";

describe("exitCodeFor()", () => {
  const table: [string, unknown, number][] = [
    ["BadInputError", new BadInputError("x"), 2],
    ["BadNameError", new BadNameError("sibling", "a/b", "it contains /"), 2],
    ["ContractError", new ContractError("c.json", "x"), 2],
    ["RunRecordError", new RunRecordError("/r/run.json", "damaged", "x"), 2],
    ["InvalidJobIdError", new InvalidJobIdError("x"), 2],
    ["GitError", new GitError("x"), 2],
    ["NoGpuLaneError", new NoGpuLaneError("x"), 2],
    ["CommandNotFoundError (a missing git)", new CommandNotFoundError("git", "/usr/bin"), 2],
    ["EvalError", new EvalError("x"), 3],
    ["ComputeError", new ComputeError("x"), 4],
    ["SlurmError", new SlurmError("x"), 4],
    ["SlurmQueryError", new SlurmQueryError("x"), 4],
    ["LocalComputeError", new LocalComputeError("x"), 4],
    ["RunLockedError", new RunLockedError("/r/lock", null), 75],
    ["a TypeError (a bug)", new TypeError("x"), 1],
    ["a RangeError (a bug)", new RangeError("x"), 1],
    ["a plain Error (a bug)", new Error("x"), 1],
    ["a thrown string", "x", 1],
  ];
  for (const [what, err, code] of table) {
    it(`maps ${what} to exit ${code}`, () => assert.equal(exitCodeFor(err), code));
  }
});

describe("the exit-code table", () => {
  const page = (name: string) => readFileSync(join(import.meta.dirname!, "..", name), "utf8");

  it('is the README\'s "Exit codes" section, word for word', () => {
    const readme = page("README.md");
    const start = readme.indexOf("## Exit codes\n\n");
    assert.ok(start >= 0, 'the README has an "## Exit codes" section');
    const body = readme.slice(start + "## Exit codes\n\n".length);
    assert.equal(
      body.slice(0, body.indexOf("\n\n") + 1),
      exitCodesMarkdown(),
      "the README's table is exitCodesMarkdown() of src/exit_codes.ts: change the table there, paste its rendering",
    );
  });

  it("is docs/exit-codes.md's table, word for word", () => {
    const doc = page("docs/exit-codes.md");
    const start = doc.indexOf("\n| code ");
    assert.ok(start >= 0, "docs/exit-codes.md has the table");
    const body = doc.slice(start + 1);
    assert.equal(
      body.slice(0, body.indexOf("\n\n") + 1),
      exitCodesMarkdown(),
      "docs/exit-codes.md's table is exitCodesMarkdown() of src/exit_codes.ts: paste its rendering",
    );
  });

  it("says what a round's crashed candidates count as: a round of crashed and rejected ones is rejected (10)", () => {
    const contract = parseContract({ name: "b", command: "c", metric: "m", direction: "maximize" }, "test");
    const crashed = new Map([[2, { pair: 1, cause: "segfault" }]]);
    const d = decideRound(contract, 2, { baseline: [10, 20], candidate: [0, 9], "candidate-2": [] }, { crashed });
    assert.deepEqual([d.verdict, VERDICT_EXIT[d.verdict]], ["reject", EXIT.rejected]);
    const brief = (code: number) => EXIT_CODE_TABLE.find((r) => r.code === code)!.decide.brief;
    assert.match(brief(EXIT.rejected), /every candidate rejected or crashed, not all crashed/);
    assert.match(brief(EXIT.inconclusive), /some candidate neither rejected nor crashed/);
  });

  it("has a row for every code of EXIT, each once, and every verdict's code among them", () => {
    const codes = EXIT_CODE_TABLE.map((r) => r.code);
    assert.deepEqual([...codes].sort((a, b) => a - b), Object.values(EXIT).sort((a, b) => a - b));
    for (const code of Object.values(VERDICT_EXIT)) assert.ok(codes.includes(code), `verdict code ${code}`);
    for (const code of Object.values(EXIT_OF)) assert.ok(codes.includes(code), `error code ${code}`);
  });

  it("renders as Markdown a row per code, with a column per group of commands", () => {
    const lines = exitCodesMarkdown().trimEnd().split("\n");
    assert.match(lines[0]!, /^\| code +\| `measure` \/ `resume` \/ `wait` +\| `calibrate` +\| other commands +\|$/);
    assert.match(lines[1]!, /^\| -+ \| -+ \| -+ \| -+ \|$/);
    assert.equal(lines.length, 2 + EXIT_CODE_TABLE.length);
    assert.match(
      lines[2 + EXIT_CODE_TABLE.findIndex((r) => r.code === EXIT.crashed)]!,
      /^\| 12 +\| the candidate crashed/,
    );
    assert.match(lines[2]!, /^\| 0 +\| accepted .*\| calibrated +\| success +\|$/);
  });

  it("gives each command the codes of its group: the verdicts to measure, resume and wait only", () => {
    assert.deepEqual(["measure", "resume", "wait", "calibrate", "show"].map(exitGroupOf), [
      "decide",
      "decide",
      "decide",
      "calibrate",
      "other",
    ]);
    assert.deepEqual(exitCodesOf("wait").map((c) => c.code), EXIT_CODE_TABLE.map((r) => r.code));
    assert.ok(!exitCodesOf("calibrate").some((c) => c.code === EXIT.crashed || c.code === EXIT.rejected));
    assert.equal(exitCodesOf("status").find((c) => c.code === EXIT.ok)!.meaning.brief, "success");
  });
});
