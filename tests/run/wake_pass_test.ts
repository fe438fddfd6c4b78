import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { SlurmQueryError } from "../../src/compute/errors.ts";
import { BadInputError } from "../../src/errors.ts";
import { EXIT } from "../../src/exit_codes.ts";
import { RunLockedError } from "../../src/run/lock.ts";
import { wakePass } from "../../src/run/wake_pass.ts";

async function wake(pass: () => Promise<number>) {
  const said: string[] = [];
  try {
    return { code: await wakePass(pass, (l) => void said.push(l)), said };
  } catch (error) {
    return { error, said };
  }
}

describe("wakePass()", () => {
  it("exits 0 whatever code its pass returned (every code of the table but 0), saying the pass's code", async () => {
    const codes = Object.values(EXIT).filter((c) => c !== EXIT.ok);
    assert.ok(codes.includes(EXIT.crashed) && codes.includes(EXIT.parked) && codes.includes(EXIT.rejected));
    for (const code of codes) {
      const r = await wake(() => Promise.resolve(code));
      assert.equal(r.code, EXIT.ok);
      assert.deepEqual(r.said, [`the pass ended with exit ${code}; the wake job exits 0, its pass having run`]);
    }
  });

  it("passes an accept's 0 through without a word", async () => {
    assert.deepEqual(await wake(() => Promise.resolve(EXIT.ok)), { code: EXIT.ok, said: [] });
  });

  it("exits 0 when the pass ended the run for good (an eval failed), saying why", async () => {
    const r = await wake(() => Promise.reject(new EvalError("measure baseline: exited 1")));
    assert.equal(r.code, EXIT.ok);
    assert.equal(r.said[0], "measure baseline: exited 1");
    assert.match(r.said[1]!, new RegExp(`exit ${EXIT.evalFailed};`));
  });

  it("exits 0 when another pass holds the run (parked), saying so", async () => {
    const r = await wake(() => Promise.reject(new RunLockedError("/r/lock", null)));
    assert.equal(r.code, EXIT.ok);
    assert.match(r.said[1]!, new RegExp(`exit ${EXIT.parked};`));
  });

  it("keeps the failure of a pass that could not run (it threw), so the job fails where a person looks", async () => {
    const r = await wake(() => Promise.reject(new BadInputError("bad contract")));
    assert.ok(r.error instanceof BadInputError);
    const down = await wake(() => Promise.reject(new SlurmQueryError("squeue: Unable to contact slurm controller")));
    assert.ok(down.error instanceof SlurmQueryError);
    const bug = await wake(() => Promise.reject(new TypeError("bug")));
    assert.ok(bug.error instanceof TypeError);
  });
});
