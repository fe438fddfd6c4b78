import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidJobIdError } from "../src/compute/compute.ts";
import { ComputeError, LocalComputeError, SlurmError, SlurmQueryError } from "../src/compute/errors.ts";
import { EvalError } from "../src/dispatch/eval_error.ts";
import { GitError } from "../src/dispatch/pin.ts";
import { BadInputError } from "../src/errors.ts";
import { BadNameError } from "../src/contract/names.ts";
import { NoGpuLaneError } from "../src/measure/placement.ts";
import { exitCodeFor } from "../src/cli/shared/errors.ts";
import { ContractError } from "../src/contract/contract.ts";
import { RunLockedError } from "../src/run/lock.ts";
import { RunRecordError } from "../src/rundir/run_record.ts";
import { CommandNotFoundError } from "../src/runtime/spawn_types.ts";

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
