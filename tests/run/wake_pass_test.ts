import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { BadInputError } from "../../src/errors.ts";
import { EXIT } from "../../src/exit_codes.ts";
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
  it("exits 0 when its pass ran: parked again, rejected or inconclusive, saying the pass's code", async () => {
    for (const code of [EXIT.parked, EXIT.rejected, EXIT.inconclusive]) {
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

  it("keeps the failure of a pass that could not run, so the job fails where a person looks", async () => {
    assert.equal((await wake(() => Promise.resolve(EXIT.badInput))).code, EXIT.badInput);
    const r = await wake(() => Promise.reject(new BadInputError("bad contract")));
    assert.ok(r.error instanceof BadInputError);
    const bug = await wake(() => Promise.reject(new TypeError("bug")));
    assert.ok(bug.error instanceof TypeError);
  });
});
