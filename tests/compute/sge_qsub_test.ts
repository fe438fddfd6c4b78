import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LaneRefusedError, SlurmError, SubmitLimitError } from "../../src/compute/errors.ts";
import { Retries } from "../../src/compute/retry.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { type QsubContext, qsubWithCare } from "../../src/compute/sge_qsub.ts";
import { WRAPPER } from "../../src/compute/sge_submit.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";
import { tempDir } from "../helpers/temp.ts";

const spec = { jobName: "eval-t-base", account: "a", partition: "", timeMinutes: 1 };

function context(answer: (argv: readonly string[]) => SpawnResult, found: string[] = []) {
  const calls: string[][] = [];
  const spooled: string[] = [];
  const runner: Runner = (argv) => {
    calls.push([...argv]);
    const w = argv.find((a) => a.endsWith("/wrapper.sh"));
    if (w) spooled.push(readFileSync(w, "utf8"));
    return Promise.resolve(answer(argv));
  };
  let t = 0;
  const retries = new Retries({ attempts: 4, baseMs: 1000, capMs: 8000, budgetMs: 120_000 }, {
    now: () => t,
    sleep: (ms) => Promise.resolve(void (t += ms)),
    random: () => 0.5,
  });
  const lookups: string[] = [];
  const ctx: QsubContext = {
    runner,
    timeoutMs: 1000,
    retries,
    pe: "smp",
    findSubmitted: (name) => (lookups.push(name), Promise.resolve(found)),
  };
  return { ctx, calls, spooled, lookups };
}

describe("qsubWithCare()", () => {
  it("spools the wrapper from a temp file (removed after), running the script with its #! interpreter", async () => {
    const script = join(tempDir("sge-qsub-"), "job.sh");
    writeFileSync(script, "#!/bin/bash\necho hi\n");
    const { ctx, calls, spooled } = context(() => exited(0, "7\n"));
    assert.equal(await qsubWithCare(ctx, { ...spec, script }, (id) => `job ${id}`), "7");
    assert.deepEqual(spooled, [WRAPPER]);
    const argv = calls[0]!;
    const wrapper = argv.find((a) => a.endsWith("/wrapper.sh"))!;
    assert.deepEqual(argv.slice(argv.indexOf(wrapper) + 1), ["/bin/bash", script]);
    assert.equal(existsSync(wrapper), false);
  });

  it("a refusal is thrown at once (a per-user job limit as SubmitLimitError), never retried", async () => {
    const refused = context(() => exited(1, "", 'Unable to run job: denied: "1x" is not a valid object name\n'));
    await assert.rejects(qsubWithCare(refused.ctx, { ...spec, command: "true" }, String), SlurmError);
    assert.equal(refused.calls.length, 1);
    const limited = context(() =>
      exited(1, "", "Unable to run job: job rejected: Only 10 jobs are allowed per user (current job count: 10)\n")
    );
    await assert.rejects(qsubWithCare(limited.ctx, { ...spec, command: "true" }, String), SubmitLimitError);
    const queue = context(() =>
      exited(1, "", 'Unable to run job: Job was rejected because job requests unknown queue "nope".\nExiting.\n')
    );
    await assert.rejects(
      qsubWithCare(queue.ctx, { ...spec, command: "true" }, String),
      (e: unknown) => e instanceof LaneRefusedError && e.lane === "partition",
    );
  });

  it("a qmaster that is down is tried again; one that may have submitted is looked up by name first", async () => {
    let n = 0;
    const down = context(() =>
      n++ < 2 ? exited(1, "", "error: commlib error: got select error (Connection refused)\n") : exited(0, "9\n")
    );
    assert.equal(await qsubWithCare(down.ctx, { ...spec, command: "true" }, String), "9");
    assert.equal(down.calls.length, 3);
    assert.deepEqual(down.lookups, []);
    const lost = context(() => ({ ...exited(1), exitCode: null, timedOut: true }), ["12"]);
    assert.equal(await qsubWithCare(lost.ctx, { ...spec, command: "true" }, String), "12");
    assert.deepEqual([lost.calls.length, lost.lookups], [1, ["eval-t-base"]]);
  });
});
