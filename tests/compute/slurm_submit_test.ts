import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SlurmError, SlurmQueryError } from "../../src/compute/errors.ts";
import { Retries } from "../../src/compute/retry.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { sbatchWithCare, type SubmitContext } from "../../src/compute/slurm_submit.ts";
import { setLogSink } from "../../src/log.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";

// Through SlurmCompute.submit (its retries with the rest of the client): tests/compute/transient_test.ts.

const TIMED_OUT = exited(1, "", "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation");
const REFUSED = exited(1, "", "sbatch: error: Batch job submission failed: Invalid account or account/partition");

/** A context whose sbatch answers `answers` in turn and whose lookup by name answers `found` in turn. */
function context(answers: SpawnResult[], found: (string[] | Error)[] = []) {
  const calls = { sbatch: 0, lookups: 0 };
  const runner: Runner = () => Promise.resolve(answers[Math.min(calls.sbatch++, answers.length - 1)]!);
  const ctx: SubmitContext = {
    runner,
    timeoutMs: 1000,
    retries: new Retries({ attempts: 3, baseMs: 10, capMs: 100, budgetMs: 60_000 }, {
      now: () => 0,
      sleep: async () => {},
      random: () => 0,
    }),
    findSubmitted: () => {
      const f = found[Math.min(calls.lookups++, found.length - 1)] ?? [];
      return f instanceof Error ? Promise.reject(f) : Promise.resolve(f);
    },
  };
  return { ctx, calls };
}

async function submit(ctx: SubmitContext) {
  const lines: string[] = [];
  const restore = setLogSink((l) => lines.push(l));
  try {
    return { id: await sbatchWithCare(ctx, ["sbatch", "job.sh"], "eval-r1-x", (id) => `job ${id}`), lines };
  } catch (error) {
    return { error: error as Error, lines };
  } finally {
    restore();
  }
}

describe("sbatchWithCare()", () => {
  it("returns the id sbatch printed, and logs it", async () => {
    const { ctx } = context([exited(0, "42;cluster\n")]);
    const r = await submit(ctx);
    assert.equal(r.id, "42");
    assert.deepEqual(r.lines, ["outerloop: submitted eval-r1-x as job 42"]);
  });

  it("never retries a refusal", async () => {
    const { ctx, calls } = context([REFUSED]);
    const r = await submit(ctx);
    assert.ok(r.error instanceof SlurmError);
    assert.equal(calls.sbatch, 1);
  });

  it("after an sbatch that may have submitted, uses the job found by name instead of submitting again", async () => {
    const { ctx, calls } = context([TIMED_OUT], [["77"]]);
    const r = await submit(ctx);
    assert.equal(r.id, "77");
    assert.equal(calls.sbatch, 1);
    assert.match(r.lines.join("\n"), /but job 77 named eval-r1-x was submitted: using it/);
  });

  it("submits again only after two clean lookups found nothing", async () => {
    const { ctx, calls } = context([TIMED_OUT, exited(0, "43\n")], [[], []]);
    const r = await submit(ctx);
    assert.equal(r.id, "43");
    assert.deepEqual(calls, { sbatch: 2, lookups: 2 });
  });

  it("submits nothing again when the lookup cannot tell", async () => {
    const down = new SlurmQueryError("squeue: connect failure");
    const { ctx, calls } = context([TIMED_OUT], [down, down, down]);
    const r = await submit(ctx);
    assert.match(r.error!.message, /whether job eval-r1-x was submitted cannot be told \(squeue: connect failure\)/);
    assert.equal(calls.sbatch, 1);
  });

  it("gives up after the attempts allowed", async () => {
    const { ctx, calls } = context([TIMED_OUT], [[]]);
    const r = await submit(ctx);
    assert.match(r.error!.message, /\(gave up after 3 tries\)$/);
    assert.equal(calls.sbatch, 3);
  });
});
