import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { type DispatchedMeasurer, NO_RECORD_GRACE_MS } from "../../src/measure/measurer.ts";
import { type Lanes, NoGpuLaneError, placement } from "../../src/measure/placement.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { testMeasurer } from "../helpers/run_fixture.ts";
import { pendingOf } from "../helpers/pending.ts";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const measure = (name: string, sha = SHA_A, gpus = 0): Measure => ({
  name,
  treeSha: sha,
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", "7"]],
  gpus,
});
const pair = [measure("baseline", SHA_A), measure("candidate", SHA_B)];

function setup(compute = new FakeCompute(), lanes: Partial<Lanes> = {}) {
  const runDir = tempDir("measurer-");
  const m = testMeasurer(runDir, compute, {
    lanes: { account: "acct", partition: "cpu", gpuPartition: "", gpuAccount: "", scheduled: true, ...lanes },
  });
  return { m, compute, runDir };
}

/** Marks a measure finished with a value, as its job would. */
function finish(m: DispatchedMeasurer, x: Measure, value: unknown, exitCode = 0): void {
  mkdirSync(m.evalDir(x), { recursive: true });
  writeFileSync(join(m.evalDir(x), EVAL_FILES.result), JSON.stringify({ score: value }));
  writeFileSync(join(m.evalDir(x), EVAL_FILES.exitCode), String(exitCode));
}

/** Records `id` as dispatched for `x`, an hour ago unless `ageMs` says otherwise. */
function marker(m: DispatchedMeasurer, x: Measure, id: string, ageMs = 3_600_000): void {
  mkdirSync(m.evalDir(x), { recursive: true });
  const file = join(m.evalDir(x), EVAL_FILES.submitted);
  writeFileSync(file, id);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(file, t, t);
}

describe("DispatchedMeasurer.results()", () => {
  it("dispatches never-dispatched measures and parks on their ids", async () => {
    const { m, compute } = setup();
    const p = await pendingOf(m.results(pair));
    assert.deepEqual(p.jobIds, ["1000", "1001"]);
    assert.equal(p.afterany(), "afterany:1000:1001");
    assert.equal(readFileSync(join(m.evalDir(pair[0]!), EVAL_FILES.submitted), "utf8"), "1000");
    assert.equal(compute.submitted[0]!.jobName, m.jobName(pair[0]!));
    assert.equal(compute.submitted[0]!.script, join(m.evalDir(pair[0]!), EVAL_FILES.script));
    assert.deepEqual(compute.calls, ["squeue", "sbatch", "sbatch", "sacct"]);
  });

  it("returns every value when all are done, asking the scheduler nothing", async () => {
    const { m, compute } = setup();
    finish(m, pair[0]!, 10);
    finish(m, pair[1]!, 12.5);
    assert.deepEqual(await m.results(pair), { baseline: 10, candidate: 12.5 });
    assert.deepEqual(compute.calls, []);
  });

  it("parks on a live job found by name, without submitting", async () => {
    const { m, compute } = setup();
    finish(m, pair[0]!, 10);
    compute.live = new Map([[m.jobName(pair[1]!), ["555"]]]);
    const p = await pendingOf(m.results(pair));
    assert.deepEqual(p.jobIds, ["555"]);
    assert.equal(compute.submitted.length, 0);
  });

  it("finds a live job even when its submitter died before writing the marker", async () => {
    const { m, compute } = setup();
    compute.live = new Map([[m.jobName(pair[0]!), ["777"]], [m.jobName(pair[1]!), ["778"]]]);
    assert.deepEqual((await pendingOf(m.results(pair))).jobIds, ["777", "778"]);
    assert.equal(compute.submitted.length, 0);
  });

  it("adopts the job an earlier pass submitted without recording it, instead of dispatching again", async () => {
    const { m, compute } = setup();
    await pendingOf(m.results([pair[0]!])); // dispatched as 1000
    rmSync(join(m.evalDir(pair[0]!), EVAL_FILES.submitted)); // as if that pass died before writing the marker
    compute.calls = [];
    // the listing misses it (empty, or lagging): only the lookup by name can tell
    const p = await pendingOf(m.results([pair[0]!]));
    assert.deepEqual(p.jobIds, ["1000"]);
    assert.equal(compute.submitted.length, 1);
    assert.equal(readFileSync(join(m.evalDir(pair[0]!), EVAL_FILES.submitted), "utf8"), "1000");
    assert.deepEqual(compute.calls, ["squeue", "find", "sacct"]);
  });

  it("parks blind instead of dispatching when an earlier attempt's job cannot be looked up", async () => {
    const { m, compute } = setup();
    await pendingOf(m.results([pair[0]!]));
    rmSync(join(m.evalDir(pair[0]!), EVAL_FILES.submitted));
    compute.findFails = true;
    const p = await pendingOf(m.results([pair[0]!]));
    assert.deepEqual(p.jobIds, []);
    assert.equal(compute.submitted.length, 1);
  });

  it("looks nothing up for a measure never dispatched before (no job script)", async () => {
    const { m, compute } = setup();
    await pendingOf(m.results([pair[0]!]));
    assert.ok(!compute.calls.includes("find"));
  });

  it("reports a dispatched measure whose job vanished as failed, never resubmits it, and dispatches the rest", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "42");
    const r = await m.look(pair);
    assert.deepEqual(r.failed, [{
      measure: "baseline",
      jobId: "42",
      kind: "vanished",
      cause: "dispatched job vanished without a result",
      message: "measure baseline: dispatched job vanished without a result",
    }]);
    // the candidate is dispatched all the same; the baseline is not sent again
    assert.deepEqual(compute.submitted.map((s) => s.script), [join(m.evalDir(pair[1]!), EVAL_FILES.script)]);
    assert.deepEqual(r.pending, { jobIds: ["1000"], blind: false, soon: false });
    assert.deepEqual(r.values, {});
    // the pass that fails a run on any failure still gets it thrown, naming the job it ran in
    await assert.rejects(
      m.results(pair),
      (e: unknown) =>
        e instanceof EvalError && e.message === "measure baseline (job 42): dispatched job vanished without a result",
    );
    assert.equal(compute.submitted.length, 1);
  });

  it("parks on a fresh dispatch that neither the listing nor sacct knows yet, instead of failing it", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "42", 30_000);
    marker(m, pair[1]!, "43", NO_RECORD_GRACE_MS + 60_000);
    compute.states = new Map([["43", "RUNNING"]]);
    assert.deepEqual((await pendingOf(m.results(pair))).jobIds, ["42", "43"]);
    // once past the grace, no record at all is a vanished job
    marker(m, pair[0]!, "42", NO_RECORD_GRACE_MS + 1000);
    await assert.rejects(m.results(pair), /measure baseline \(job 42\): dispatched job vanished without a result/);
    assert.equal(compute.submitted.length, 0);
  });

  it("says a vanished job hit its walltime when sacct says TIMEOUT, and names eval_minutes", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "42");
    compute.states = new Map([["42", "TIMEOUT"]]);
    await assert.rejects(m.results(pair), {
      message: "measure baseline: job 42 hit its walltime (TIMEOUT) before producing a result; a slower run needs " +
        "more minutes than were declared for its eval: raise eval_minutes in the contract (now 5 minutes)",
    });
    const r = await m.look(pair);
    assert.equal(r.failed[0]!.kind, "timeout");
    assert.equal(r.failed[0]!.cause, "ran past eval_minutes (5 minutes)");
    // a node that failed under a started eval is no fault of its code: sent again (retry.ts), not failed
    writeFileSync(join(m.evalDir(pair[0]!), EVAL_FILES.started), "2026-01-01T00:00:00Z node1\n");
    compute.states = new Map([["42", "NODE_FAIL"]]);
    const again = await m.look(pair);
    assert.deepEqual(again.failed, []);
    assert.ok(compute.submitted.some((s) => s.script === join(m.evalDir(pair[0]!), EVAL_FILES.script)));
  });

  it("reads a job that finished while squeue was answering as done, not vanished", async () => {
    const { m, compute } = setup();
    finish(m, pair[0]!, 10);
    marker(m, pair[1]!, "43");
    const list = compute.activeJobs.bind(compute);
    compute.activeJobs = async () => {
      const answer = await list(); // the job was still listed when squeue looked...
      finish(m, pair[1]!, 12); // ...and wrote its exit code before the answer came back
      return answer;
    };
    assert.deepEqual(await m.results(pair), { baseline: 10, candidate: 12 });
  });

  it("parks, rather than fails, on a dispatched job an empty listing misses while sacct says it is queued", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "42");
    marker(m, pair[1]!, "43");
    compute.states = new Map([["42", "PENDING"], ["43", "RUNNING"]]);
    const p = await pendingOf(m.results(pair));
    assert.deepEqual(p.jobIds, ["42", "43"]);
    assert.equal(compute.submitted.length, 0);
    assert.deepEqual(compute.calls, ["squeue", "sacct"]);
  });

  it("parks when sacct cannot confirm that an unlisted job is dead", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "42");
    compute.states = null;
    assert.deepEqual((await pendingOf(m.results([pair[0]!]))).jobIds, ["42"]);
    assert.equal(compute.submitted.length, 0);
  });

  it("parks on the markers, dispatching nothing, when the queue cannot be listed", async () => {
    const { m, compute } = setup();
    compute.live = null;
    marker(m, pair[0]!, "42");
    const p = await pendingOf(m.results(pair));
    // candidate has no marker: blind, so no id, and no dispatch
    assert.deepEqual(p.jobIds, ["42"]);
    assert.equal(compute.submitted.length, 0);
  });

  it("parks blind (no ids, no afterany) when nothing is known", async () => {
    const { m, compute } = setup();
    compute.live = null;
    const p = await pendingOf(m.results(pair));
    assert.deepEqual(p.jobIds, []);
    assert.equal(p.afterany(), "");
    assert.equal(compute.submitted.length, 0);
  });

  it("flows straight through when the backend finishes jobs inside submit", async () => {
    const { m, compute } = setup();
    let value = 10;
    compute.onSubmit = (spec) => finishEvalJob(spec, { score: value++ });
    assert.deepEqual(await m.results(pair), { baseline: 10, candidate: 11 });
    assert.deepEqual(compute.calls, ["squeue", "sbatch", "sbatch"]);
  });

  it("fails, rather than parks, when a job is already terminal right after submit", async () => {
    const { m, compute } = setup();
    compute.states = new Map([["1000", "FAILED"]]);
    await assert.rejects(m.results(pair), /measure baseline: job 1000 ended FAILED without a result/);
  });

  it("parks when the state right after submit is unknown", async () => {
    const { m, compute } = setup();
    compute.states = null;
    assert.deepEqual((await pendingOf(m.results(pair))).jobIds, ["1000", "1001"]);
  });

  it("explains a signal's exit (143, 137) from the scheduler's end state", async () => {
    for (
      const [code, state, why, kind] of [
        [
          "143",
          "TIMEOUT",
          "was killed at its walltime (exit 143); a slower run needs more minutes than were declared for its eval: " +
          "raise eval_minutes in the contract (now 5 minutes); ",
          "timeout",
        ],
        ["137", "OUT_OF_MEMORY", "ran out of memory (exit 137, OUT_OF_MEMORY)", "exit"],
        ["143", "FAILED", "was killed by a signal (exit 143; its job ended FAILED)", "exit"],
      ] as const
    ) {
      const { m, compute } = setup();
      finish(m, pair[0]!, 10);
      marker(m, pair[1]!, "99");
      writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), code);
      compute.states = new Map([["99", state]]);
      const r = await m.look(pair);
      assert.equal(r.failed.length, 1, state);
      assert.ok(r.failed[0]!.message.startsWith(`measure candidate ${why}`), r.failed[0]!.message);
      assert.equal(r.failed[0]!.kind, kind);
      assert.deepEqual(r.values, { baseline: 10 });
      assert.deepEqual(compute.calls, ["squeue", "sacct"]);
    }
  });

  it("blames a signal on the eval for want of any account only once the scheduler has kept none for the grace", async () => {
    const { m, compute } = setup();
    finish(m, pair[0]!, 10);
    marker(m, pair[1]!, "99");
    const exit = join(m.evalDir(pair[1]!), EVAL_FILES.exitCode);
    writeFileSync(exit, "143");
    // no record yet, the exit code fresh: the scheduler has not spoken
    const fresh = await m.look(pair);
    assert.deepEqual([fresh.failed, fresh.pending], [[], { jobIds: [], blind: true, soon: true }]);
    const t = (Date.now() - NO_RECORD_GRACE_MS - 1000) / 1000;
    utimesSync(exit, t, t);
    const r = await m.look(pair);
    assert.equal(r.failed.length, 1);
    assert.match(
      r.failed[0]!.message,
      /^measure candidate was killed by a signal \(exit 143\), and the scheduler kept no record/,
    );
    assert.equal(compute.submitted.length, 0);
  });

  it("never blames a signal before the scheduler has spoken, whichever of the exit code and the scheduler comes first", async () => {
    // the exit code first: the task scancelled by someone else wrote 143 while squeue still lists it
    // COMPLETING and sacct has no row for it (seen on Slurm 22.05), then sacct reads RUNNING, then it is over
    {
      const { m, compute } = setup();
      finish(m, pair[0]!, 10);
      marker(m, pair[1]!, "99_0");
      writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), "143");
      compute.live = new Map([[m.jobName(pair[1]!), ["99_0"]]]);
      compute.liveStates.set("99_0", { state: "COMPLETING", reason: "" });
      const listed = await m.look(pair);
      assert.deepEqual([listed.failed, listed.pending], [[], { jobIds: ["99"], blind: false, soon: false }]);
      compute.live = new Map();
      compute.states = new Map([["99_0", "RUNNING"]]);
      const running = await m.look(pair);
      assert.deepEqual([running.failed, running.pending], [[], { jobIds: ["99"], blind: false, soon: false }]);
      compute.states = new Map();
      const silent = await m.look(pair);
      assert.deepEqual([silent.failed, silent.pending], [[], { jobIds: [], blind: true, soon: true }]);
      assert.equal(compute.submitted.length, 0, "nothing sent while the scheduler is silent");
      compute.states = new Map([["99_0", "CANCELLED by 0"]]);
      const spoken = await m.look(pair);
      assert.deepEqual(spoken.failed, []);
      assert.equal(compute.submitted.length, 1, "sent again once the scheduler said CANCELLED");
      assert.equal(readFileSync(join(m.evalDir(pair[1]!), "retried"), "utf8"), "99_0\n");
    }
    // the scheduler first: sacct says CANCELLED before the dying job's trap wrote its 143, which lands in the
    // eval dir after the attempt was set aside and the measure sent again — it is not the new job's result
    {
      const { m, compute } = setup();
      finish(m, pair[0]!, 10);
      marker(m, pair[1]!, "99");
      compute.states = new Map([["99", "CANCELLED by 0"]]);
      const spoken = await m.look(pair);
      assert.deepEqual(spoken.failed, []);
      assert.equal(compute.submitted.length, 1, "sent again");
      const again = m.marker(pair[1]!);
      assert.notEqual(again, "99");
      writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), "143"); // the old job's late trap
      compute.live = new Map([[m.jobName(pair[1]!), [again]]]);
      compute.liveStates.set(again, { state: "PENDING", reason: "Priority" });
      const late = await m.look(pair);
      assert.deepEqual([late.failed, late.pending], [[], { jobIds: [again], blind: false, soon: false }]);
      assert.equal(compute.submitted.length, 1, "the new job is waited on, not sent again");
      finish(m, pair[1]!, 12); // the new job ran: its script removed the stale exit code, then wrote its own
      compute.live = new Map();
      const done = await m.look(pair);
      assert.deepEqual([done.failed, done.values, done.pending], [[], { baseline: 10, candidate: 12 }, null]);
    }
  });

  it("sends again an eval the scheduler stopped for a cause that is nobody's code, keeping the attempt", async () => {
    for (const state of ["CANCELLED by 0", "PREEMPTED", "NODE_FAIL"]) {
      const { m, compute } = setup();
      finish(m, pair[0]!, 10);
      marker(m, pair[1]!, "99");
      writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), "143");
      compute.states = new Map([["99", state]]);
      const r = await m.look(pair);
      assert.deepEqual(r.failed, [], state);
      assert.deepEqual(r.values, { baseline: 10 });
      assert.deepEqual(compute.submitted.map((s) => s.script), [join(m.evalDir(pair[1]!), EVAL_FILES.script)]);
      assert.deepEqual(r.pending, { jobIds: ["1000"], blind: false, soon: false });
      const attempt = join(m.evalDir(pair[1]!), "attempt-1");
      assert.equal(readFileSync(join(attempt, EVAL_FILES.exitCode), "utf8"), "143", "the dead attempt is kept");
      assert.equal(readFileSync(join(attempt, "job"), "utf8"), "99\n");
      assert.equal(readFileSync(join(m.evalDir(pair[1]!), "retried"), "utf8"), "99\n");
      assert.equal(m.marker(pair[1]!), "1000");
    }
  });

  it("reports a measure whose job outerloop cancelled itself neither failed nor sent again", async () => {
    const { m, compute } = setup();
    finish(m, pair[0]!, 10);
    marker(m, pair[1]!, "99_3");
    compute.states = new Map([["99_3", "CANCELLED by 0"]]);
    const r = await m.look(pair, { cancelledByUs: new Set(["99"]) });
    assert.deepEqual(r.failed, []);
    assert.deepEqual(r.cancelled, ["candidate"]);
    assert.equal(r.pending, null);
    assert.equal(compute.submitted.length, 0);
    // an exit 143 of a task of an array outerloop cancelled whole: the same
    writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), "143");
    const again = await m.look(pair, { cancelledByUs: new Set(["99"]) });
    assert.deepEqual([again.failed, again.cancelled, compute.submitted.length], [[], ["candidate"], 0]);
  });

  it("parks on an exit 143 whose job the scheduler requeued, and blind when sacct cannot explain it", async () => {
    const { m, compute } = setup();
    marker(m, pair[0]!, "99");
    writeFileSync(join(m.evalDir(pair[0]!), EVAL_FILES.exitCode), "143");
    finish(m, pair[1]!, 12);
    compute.states = new Map([["99", "PENDING"]]);
    assert.deepEqual((await m.look(pair)).pending, { jobIds: ["99"], blind: false, soon: false });
    compute.states = null;
    const r = await m.look(pair);
    assert.deepEqual([r.pending, r.failed, compute.submitted.length], [
      { jobIds: [], blind: true, soon: false },
      [],
      0,
    ]);
  });

  it("sends again a requeued job whose later run never reached its eval: the 143 on disk is the requeued run's", async () => {
    // Slurm TERMs a job it requeues (143 on disk); the job's next run was refused on its node ("Job credential
    // revoked") and ended FAILED before the eval script ran, which would have set the first run aside
    class Requeuing extends FakeCompute {
      requeueCounts = new Map<string, number>();
      requeues(ids: readonly string[]): Promise<Map<string, number>> {
        this.calls.push("sacct -D");
        return Promise.resolve(
          new Map(ids.flatMap((id) => {
            const n = this.requeueCounts.get(id);
            return n === undefined ? [] : [[id, n] as const];
          })),
        );
      }
    }
    const compute = new Requeuing();
    const { m } = setup(compute);
    finish(m, pair[0]!, 10);
    marker(m, pair[1]!, "99_1");
    const dir = m.evalDir(pair[1]!);
    writeFileSync(join(dir, EVAL_FILES.exitCode), "143");
    compute.states = new Map([["99_1", "FAILED"]]);
    // never requeued: the signal is the eval's
    const own = await m.look(pair);
    assert.equal(own.failed.length, 1);
    assert.deepEqual(compute.calls, ["squeue", "sacct", "sacct -D"]);
    // requeued once, and the run that set the first aside (attempt-1/restart) ran: its 143 is its own
    compute.requeueCounts.set("99_1", 1);
    mkdirSync(join(dir, "attempt-1"));
    writeFileSync(join(dir, "attempt-1", "job"), "99_1\n");
    writeFileSync(join(dir, "attempt-1", "restart"), "1\n");
    assert.equal((await m.look(pair)).failed.length, 1);
    // requeued twice, one run set aside: the last never reached the eval: sent again, the 143 kept as an attempt
    compute.requeueCounts.set("99_1", 2);
    compute.calls.length = 0;
    const r = await m.look(pair);
    assert.deepEqual([r.failed, compute.submitted.length], [[], 1]);
    assert.deepEqual(compute.calls.slice(0, 3), ["squeue", "sacct", "sacct -D"]);
    assert.equal(readFileSync(join(dir, "retried"), "utf8"), "99_1\n");
    assert.equal(readFileSync(join(dir, "attempt-2", EVAL_FILES.exitCode), "utf8"), "143");
    assert.match(
      readFileSync(join(dir, "attempt-2", "why"), "utf8"),
      /^job 99_1 ended FAILED in a run after the scheduler requeued it, before its eval started again$/m,
    );
  });

  it("waits, blaming nothing, when it cannot ask whether a killed job was requeued", async () => {
    class Unreachable extends FakeCompute {
      requeues(): Promise<Map<string, number>> {
        return Promise.reject(new Error("sacct: error: slurmdbd unreachable"));
      }
    }
    const compute = new Unreachable();
    const { m } = setup(compute);
    finish(m, pair[0]!, 10);
    marker(m, pair[1]!, "99");
    writeFileSync(join(m.evalDir(pair[1]!), EVAL_FILES.exitCode), "143");
    compute.states = new Map([["99", "FAILED"]]);
    const r = await m.look(pair);
    assert.deepEqual([r.failed, r.pending, compute.submitted.length], [
      [],
      { jobIds: [], blind: true, soon: false },
      0,
    ]);
  });

  it("names the measure when its result is bad", async () => {
    const { m } = setup();
    finish(m, pair[0]!, 10);
    finish(m, pair[1]!, "12");
    await assert.rejects(m.results(pair), /^EvalError: measure candidate: Eval metric "score"/);
  });
});

describe("scheduler commands per results() pass", () => {
  for (const n of [1, 10, 100]) {
    it(`is one squeue for ${n} pending measures already running`, async () => {
      const { m, compute } = setup();
      const ms = Array.from({ length: n }, (_, i) => measure(`m${i}`));
      compute.live = new Map(ms.map((x, i) => [m.jobName(x), [String(5000 + i)]]));
      const p = await pendingOf(m.results(ms));
      assert.equal(p.jobIds.length, n);
      assert.deepEqual(compute.calls, ["squeue"]);
    });
    it(`is one squeue and one sacct (plus the submissions) for ${n} fresh measures`, async () => {
      const { m, compute } = setup();
      const ms = Array.from({ length: n }, (_, i) => measure(`m${i}`));
      await pendingOf(m.results(ms));
      assert.equal(compute.calls.filter((c) => c === "squeue").length, 1);
      assert.equal(compute.calls.filter((c) => c === "sacct").length, 1);
      assert.equal(compute.calls.filter((c) => c === "sbatch").length, n);
    });
  }
});

describe("placement", () => {
  it("puts a GPU measure on the GPU lane and its account", async () => {
    const { m, compute } = setup(new FakeCompute(), { gpuPartition: "gpu", gpuAccount: "gacct" });
    await pendingOf(m.results([measure("baseline", SHA_A, 2)]));
    assert.equal(compute.submitted[0]!.partition, "gpu");
    assert.equal(compute.submitted[0]!.account, "gacct");
    assert.equal(compute.submitted[0]!.gpus, 2);
  });

  it("refuses a GPU measure with no lane, naming --gpu-partition, before submitting", async () => {
    const { m, compute } = setup();
    await assert.rejects(
      m.results([measure("baseline", SHA_A, 1)]),
      (e: unknown) => e instanceof NoGpuLaneError && /no GPU lane is configured: pass --gpu-partition/.test(e.message),
    );
    assert.equal(compute.submitted.length, 0);
  });

  it("has no lanes on an unscheduled (local) backend", () => {
    const lanes = { account: "a", partition: "p", gpuPartition: "", gpuAccount: "", scheduled: false };
    assert.deepEqual(placement(lanes, 4, "m"), { account: "a", partition: "p" });
    assert.deepEqual(placement({ ...lanes, scheduled: true, gpuPartition: "g" }, 1, "m"), {
      account: "a",
      partition: "g",
    });
    assert.deepEqual(placement({ ...lanes, scheduled: true }, 0, "m"), { account: "a", partition: "p" });
    assert.throws(() => placement({ ...lanes, scheduled: true }, 1, "Measure x"), /^NoGpuLaneError: Measure x needs 1/);
  });
});

describe("identities", () => {
  it("gives each measure an eval dir named eval-<slot> and writes nothing before dispatch", () => {
    const { m, runDir } = setup();
    assert.equal(m.evalDir(pair[0]!), join(runDir, `eval-${m.slot(pair[0]!)}`));
    assert.match(m.slot(pair[0]!), new RegExp(`^baseline-${SHA_A}-[0-9a-f]{40}$`));
    assert.match(m.jobName(pair[0]!), /^eval-run1-baseline-[0-9a-f]{16}$/);
    assert.equal(existsSync(m.evalDir(pair[0]!)), false);
  });
});
