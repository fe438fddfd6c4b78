import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { LiveJob } from "../../src/compute/compute.ts";
import { runJobNames } from "../../src/plan/run_jobs.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { wakeJobName } from "../../src/rundir/wake_record.ts";
import { climbLiveness, livenessOf, noWakeWarning } from "../../src/views/run_liveness.ts";
import { makeRun } from "../helpers/report_fixtures.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const job = (name: string, script: string): LiveJob => ({
  id: "1",
  arrayId: null,
  taskId: null,
  name,
  state: "RUNNING",
  reason: "",
  partition: "",
  script,
});

function run() {
  const dir = new RunDir(join(tempDir("liveness-"), "r1"));
  mkdirSync(dir.path, { recursive: true });
  const record = runRecordFixture({ runTag: "r1" });
  writeRunRecord(dir, record);
  const evalName = [...runJobNames(dir, record)].find((n) => n.startsWith("eval-"))!;
  return { dir, record, evalName, wake: wakeJobName("r1", dir) };
}

describe("livenessOf()", () => {
  it("an eval job whose script lies in the run dir is live; its wake is seen by name", () => {
    const { dir, record, evalName, wake } = run();
    const listing = new Map([[evalName, [job(evalName, join(dir.path, "eval-x", "job.sh"))]], [wake, [job(wake, "")]]]);
    assert.deepEqual(livenessOf(listing, dir, record), { jobs: true, wake: true });
  });

  it("a job of the same name from another run's dir is not this run's", () => {
    const { dir, record, evalName } = run();
    const listing = new Map([[evalName, [job(evalName, "/elsewhere/r1/eval-x/job.sh")]]]);
    assert.deepEqual(livenessOf(listing, dir, record), { jobs: false, wake: false });
  });
});

describe("noWakeWarning()", () => {
  it("says what happens without a wake and how to re-arm it", () => {
    const dir = new RunDir("/runs/r1");
    assert.equal(
      noWakeWarning(dir, true),
      "no wake job is queued or running for this parked run: its jobs run, but nothing will resume the run when " +
        'they end; "outerloop resume /runs/r1" re-arms it (or "outerloop wait /runs/r1" carries it on)',
    );
    assert.match(noWakeWarning(dir, false), /: nothing of it is queued or running; /);
  });
});

describe("climbLiveness()", () => {
  it("asks one listing per backend for the parked runs only, and sets their liveness", async () => {
    const a = run(), b = run();
    let listings = 0;
    const listingOf = () => {
      listings++;
      return Promise.resolve(new Map([[a.wake, [job(a.wake, "")]]]));
    };
    const runs = [
      makeRun({ runDir: a.dir.path, state: "parked", verdict: null }),
      makeRun({ runDir: b.dir.path, state: "parked", verdict: null }),
      makeRun({ runDir: "/never/read" }),
    ];
    const out = await climbLiveness(runs, listingOf);
    assert.equal(listings, 1);
    assert.equal(out.error, null);
    assert.deepEqual(out.runs.map((r) => [r.live, r.wakeLive]), [[true, true], [false, false], [null, undefined]]);
  });

  it("leaves liveness unknown and says why when the listing fails", async () => {
    const a = run();
    const out = await climbLiveness(
      [makeRun({ runDir: a.dir.path, state: "parked", verdict: null })],
      () => Promise.reject(new Error("squeue: timed out")),
    );
    assert.equal(out.error, "squeue: timed out");
    assert.equal(out.runs[0]!.live, null);
  });
});
