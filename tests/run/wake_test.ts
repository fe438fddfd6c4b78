import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { SOON_SECONDS } from "../../src/measure/look_results.ts";
import { describe, it } from "node:test";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { BLIND_WAKE_SECONDS } from "../../src/run/wake.ts";
import { wakeJobName } from "../../src/rundir/wake_record.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const SELF = ["/opt/bin/outerloop"];

/** A parked-run scenario: a run dir, a fake scheduler that records cancels, and a pass runner. */
function scenario(over: Partial<Parameters<typeof runRecordFixture>[0]> = {}) {
  const runDir = join(tempDir("wake-"), "run");
  const rec = runRecordFixture({ createdAt: new Date().toISOString(), ...over });
  writeRunRecord(new RunDir(runDir), rec);
  const compute = new FakeCompute();
  const cancelled: string[] = [];
  compute.cancel = async (id: string) => void cancelled.push(id);
  const wakeName = wakeJobName(rec.runTag, new RunDir(runDir));
  const pass = (env: Record<string, string> = {}) =>
    runPhase(new RunDir(runDir), { compute, self: SELF, now: Date.now, env });
  const wakeJson = () => JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8"));
  const evals = () => compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
  const wakes = () => compute.submitted.filter((s) => s.jobName === wakeName);
  /** The queue: each eval job live under the id it got, plus these wakes. */
  const queue = (wakeIds: string[]) => {
    compute.live = new Map<string, string[]>([
      ...evals().map((s) => [s.jobName, [compute.submittedIds[compute.submitted.indexOf(s)]!]] as [string, string[]]),
      [wakeName, wakeIds],
    ]);
  };
  return { runDir, compute, cancelled, wakeName, pass, wakeJson, evals, wakes, queue };
}

describe("the wake job of a parked run", () => {
  it("is kept, and nothing submitted, when a resume finds it queued on the same jobs", async () => {
    const s = scenario();
    await s.pass();
    const first = s.wakeJson();
    for (let i = 0; i < 4; i++) {
      s.queue([first.job_id]);
      const again = await s.pass();
      assert.equal(again.kind === "parked" && again.wake.jobId, first.job_id);
    }
    assert.equal(s.wakes().length, 1, "one wake in all");
    assert.equal(s.evals().length, 2);
    assert.deepEqual(s.cancelled, []);
    assert.deepEqual(s.wakeJson(), first);
  });

  it("is replaced when it no longer waits on the pending jobs, and every other wake of the run is cancelled by name", async () => {
    const s = scenario();
    await s.pass();
    const first = s.wakeJson().job_id;
    s.queue([first, "4242"]); // 4242: a wake whose sbatch reported failure, never recorded
    s.compute.live!.set(s.evals()[0]!.jobName, ["3000"]); // the measure is live under another id
    const again = await s.pass();
    assert.equal(again.kind, "parked");
    assert.equal(s.wakes().length, 2);
    assert.equal(s.wakeJson().job_id, again.kind === "parked" ? again.wake.jobId : "");
    assert.deepEqual(s.cancelled.sort(), [first, "4242"].sort());
  });

  it("is replaced when the recorded one is not queued any more (it ran, or was cancelled)", async () => {
    const s = scenario();
    await s.pass();
    s.queue([]);
    await s.pass();
    assert.equal(s.wakes().length, 2);
    assert.deepEqual(s.cancelled, []);
  });

  it("never cancels the wake it runs inside", async () => {
    const s = scenario();
    await s.pass();
    const first = s.wakeJson().job_id;
    s.queue([first, "4242"]);
    s.compute.liveStates.set(first, { state: "RUNNING", reason: "None" });
    await s.pass({ SLURM_JOB_ID: first });
    assert.equal(s.wakes().length, 2, "a running wake is not kept: it is about to end");
    assert.deepEqual(s.cancelled, ["4242"]);
  });

  it("keeps a blind park's deadline wake while the queue still cannot be read", async () => {
    const s = scenario();
    s.compute.live = null;
    await s.pass();
    assert.equal(withDefaults(s.wakes()[0]!).begin, `now+${BLIND_WAKE_SECONDS}`);
    // the listing fails again: a new deadline wake; the recorded one, whose state the queue could not
    // say (it may be running: a running wake is never cancelled), is left to find the run as it is
    await s.pass();
    assert.equal(s.wakes().length, 2);
    assert.deepEqual(s.cancelled, []);
    // the listing answers, but the evals were never dispatched: they are now, and the wake replaced
    s.compute.live = new Map([[s.wakeName, [s.wakeJson().job_id]]]);
    await s.pass();
    assert.equal(s.evals().length, 2);
    assert.equal(s.wakes().length, 3);
  });

  it("looks again soon, not after the deadline wake's delay, when only sacct's account of a signal's exit is awaited", async () => {
    const s = scenario();
    await s.pass(); // both evals dispatched
    // one eval's job was stopped by a signal (exit 143), left the queue, and sacct has no row for it yet
    const [stopped, other] = s.evals();
    writeFileSync(join(dirname(stopped!.script!), EVAL_FILES.exitCode), "143");
    finishEvalJob(other!, { score: 1 });
    s.compute.live = new Map(); // neither eval job is queued any more
    await s.pass();
    assert.equal(s.wakeJson().begin, `now+${SOON_SECONDS}`);
    assert.equal(s.wakeJson().dependency, null);
    assert.equal(s.evals().length, 2, "nothing sent again before the scheduler has spoken");
  });

  it("on Slurm, also starts as soon as one of the look's candidate jobs fails (fail fast); not on Grid Engine", async () => {
    const s = scenario();
    await s.pass(); // baseline 1000, candidate 1001
    assert.equal(s.wakeJson().dependency, "afterany:1000:1001?afternotok:1001");
    const ge = scenario({ compute: "sge" });
    await ge.pass();
    assert.equal(ge.wakeJson().dependency, "afterany:1000:1001");
  });

  it("keeps a deadline wake queued for a blind park when the next park is blind too", async () => {
    const s = scenario();
    s.compute.live = null;
    await s.pass();
    const deadline = s.wakeJson();
    assert.equal(deadline.begin, `now+${BLIND_WAKE_SECONDS}`);
    // the measures' listing fails again, the wake listing answers (two independent reads)
    s.compute.live = new Map([[s.wakeName, [deadline.job_id]]]);
    s.compute.liveStates.set(deadline.job_id, { state: "PENDING", reason: "BeginTime" });
    const list = s.compute.activeJobs.bind(s.compute);
    let calls = 0;
    s.compute.activeJobs = async () => {
      if (calls++ === 0) throw new Error("squeue failed");
      return await list();
    };
    const again = await s.pass();
    assert.equal(again.kind === "parked" && again.wake.jobId, deadline.job_id);
    assert.equal(s.wakes().length, 1, "the queued deadline wake is kept");
    assert.deepEqual(s.cancelled, []);
  });

  it("is never cancelled while it runs: a running wake of a decided run ends by itself", async () => {
    const s = scenario();
    await s.pass();
    const first = s.wakeJson().job_id;
    for (const spec of s.evals()) finishEvalJob(spec, { score: spec.jobName.includes("candidate") ? 12 : 10 });
    // the wake started and waits for the run lock while another process (wait) decides
    s.compute.live = new Map([[s.wakeName, [first, "4242"]]]);
    s.compute.liveStates.set(first, { state: "RUNNING", reason: "None" });
    const decided = await s.pass();
    assert.equal(decided.kind, "decided");
    assert.deepEqual(s.cancelled, ["4242"], "the pending leftover goes, the running wake stays");
  });

  it("of a decided run are cancelled when the pass decides, and by any leftover wake that starts later, unless about to start", async () => {
    const s = scenario();
    await s.pass();
    const first = s.wakeJson().job_id;
    for (const spec of s.evals()) finishEvalJob(spec, { score: spec.jobName.includes("candidate") ? 12 : 10 });
    s.compute.live = new Map([[s.wakeName, [first, "4242"]]]);
    const decided = await s.pass({ SLURM_JOB_ID: first });
    assert.equal(decided.kind, "decided");
    assert.deepEqual(s.cancelled, ["4242"], "all but the wake running the pass");
    // a manual resume of the decided run answers from its files, asking the scheduler nothing
    const calls = s.compute.calls.length;
    await s.pass();
    assert.equal(s.compute.calls.length, calls);
    // a leftover wake that starts anyway retires the others: the recorded one, the jobs it waits on all over,
    // is about to start (Slurm starts it at any moment) and is left to find the run decided
    await s.pass({ SLURM_JOB_ID: "4242" });
    assert.deepEqual(s.cancelled, ["4242"]);
    s.compute.live = new Map([[s.wakeName, [first, "4243"]]]);
    await s.pass({ SLURM_JOB_ID: "4242" });
    assert.deepEqual(s.cancelled, ["4242", "4243"], "a pending wake that is not the recorded one is cancelled");
  });
});
