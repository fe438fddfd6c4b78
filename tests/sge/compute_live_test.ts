/**
 * SgeCompute against a real Son of Grid Engine 8.1.9 cell (scripts/ge-testbed):
 * the verbs, arrays as `A_T` from 0, every end state (a job deleted while
 * pending included), and the job wrapper's exit 99 and 100, which GE would
 * otherwise reschedule forever and hold in Eqw with its dependents.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import { SgeCompute } from "../../src/compute/sge.ts";
import { SgeJobNameError } from "../../src/compute/sge_submit.ts";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { isTerminal } from "../../src/compute/states.ts";
import { setLogLevel } from "../../src/log.ts";
import { geCommand, geIt, geLive, waitFor } from "../helpers/ge_live.ts";
import { tempDir } from "../helpers/temp.ts";

// the level is the process's: under bun every test file shares it, so it is put back after this file
before(() => setLogLevel("quiet"));
const compute = new SgeCompute({ commandTimeoutMs: 30_000, accountingLagMs: 8000 });
const TAG = `gelive-${Date.now().toString(36)}`;
const submitted: string[] = [];
let workDir = "";
const work = () => (workDir ||= tempDir("outerloop-ge-live-"));

async function submit(fields: Partial<JobSpec> & { readonly jobName: string }): Promise<string> {
  const id = await compute.submit({ account: "acct_a", partition: "", timeMinutes: 5, mem: "100M", ...fields });
  submitted.push(id);
  return id;
}
const ended = (id: string, timeoutMs = 60_000) =>
  waitFor(`job ${id} to end`, () => compute.status(id), isTerminal, timeoutMs, 500);

after(async () => {
  setLogLevel("info");
  if (geLive.kind === "run" && submitted.length > 0) await compute.cancelMany(submitted).catch(() => {});
});

geIt("a job runs under GE: id from qsub -terse, live in one qstat -xml, COMPLETED from qacct", 90_000, async () => {
  const out = path.join(work(), "ok.out");
  const id = await submit({ jobName: `${TAG}-ok`, command: `echo "job=$OUTERLOOP_JOB_ID"; sleep 2`, output: out });
  assert.match(id, /^[0-9]+$/);
  const listed = await waitFor("listed", () => compute.activeJobs(), (m) => m.has(`${TAG}-ok`), 20_000, 250);
  assert.equal(listed.get(`${TAG}-ok`)![0]!.id, id);
  assert.equal(await compute.jobIdForName(`${TAG}-ok`), id);
  assert.equal(await ended(id), "COMPLETED");
  assert.match(readFileSync(out, "utf8"), new RegExp(`job=${id}\\b`));
  assert.deepEqual(await compute.findSubmitted(`${TAG}-ok`, new Date(Date.now() - 120_000)), [id]);
  const usage = (await compute.usage([id])).get(id)!;
  assert.equal(usage.state, "COMPLETED");
  assert.equal(usage.timelimitS, 300);
  assert.ok(usage.elapsedS !== null && usage.elapsedS >= 1, JSON.stringify(usage));
});

geIt(
  "exit codes: 3 is FAILED; 99 and 100 are FAILED too (never rescheduled, never Eqw), and release a dependent",
  120_000,
  async () => {
    const three = await submit({ jobName: `${TAG}-e3`, command: "exit 3" });
    const ninetyNine = await submit({ jobName: `${TAG}-e99`, command: "exit 99" });
    const hundred = await submit({ jobName: `${TAG}-e100`, command: "exit 100" });
    const dependent = await submit({
      jobName: `${TAG}-after`,
      command: "true",
      dependency: `afterany:${ninetyNine}:${hundred}`,
    });
    for (const id of [three, ninetyNine, hundred]) assert.equal(await ended(id), "FAILED", `job ${id}`);
    assert.equal(await ended(dependent), "COMPLETED");
    const acct = await geCommand(["qacct", "-j", ninetyNine]);
    assert.equal(acct.match(/^jobnumber/gm)?.length, 1, "exit 99 must not be rescheduled:\n" + acct);
    assert.match(acct, /^exit_status\s+1\b/m);
  },
);

geIt("an array is A_0 … A_(N-1) outside GE, its tasks throttled, each task ending on its own", 120_000, async () => {
  const dir = work();
  const script = path.join(dir, "task.sh");
  writeFileSync(
    script,
    `#!/bin/bash\necho "task=$OUTERLOOP_JOB_ID sge=$SGE_TASK_ID" > "${dir}/t-$SGE_TASK_ID"\nsleep 3\n`,
  );
  const id = await compute.submitArray(
    { jobName: `${TAG}-arr`, account: "acct_a", partition: "", timeMinutes: 5, script },
    4,
    2,
  );
  submitted.push(id);
  const rows = await waitFor(
    "tasks listed",
    () => compute.activeJobs(),
    (m) => (m.get(`${TAG}-arr`)?.length ?? 0) === 4,
    20_000,
    250,
  );
  assert.deepEqual(rows.get(`${TAG}-arr`)!.map((j) => j.id).sort(), [0, 1, 2, 3].map((t) => `${id}_${t}`));
  assert.ok(rows.get(`${TAG}-arr`)!.filter((j) => j.state === "RUNNING").length <= 2);
  for (let t = 0; t < 4; t++) assert.equal(await ended(`${id}_${t}`), "COMPLETED");
  assert.match(readFileSync(path.join(dir, "t-1"), "utf8"), new RegExp(`task=${id}_0 sge=1`));
  const states = await compute.statuses([`${id}_0`, `${id}_3`]);
  assert.deepEqual([...states.entries()], [[`${id}_0`, "COMPLETED"], [`${id}_3`, "COMPLETED"]]);
});

geIt(
  "a job deleted while pending (no qacct record ever) reads CANCELLED after the accounting lag, not GONE",
  90_000,
  async () => {
    const held = await submit({ jobName: `${TAG}-held`, command: "true", extra: ["-h"] });
    const live = await compute.activeJobs();
    assert.equal(live.get(`${TAG}-held`)![0]!.state, "PENDING");
    await compute.cancel(held);
    await compute.cancel(held); // idempotent
    assert.equal(await compute.status(held), "CANCELLED");
  },
);

geIt("a running job qdel'd is CANCELLED; a walltime overrun is TIMEOUT", 150_000, async () => {
  const long = await submit({ jobName: `${TAG}-long`, command: "sleep 120" });
  const timeout = await submit({ jobName: `${TAG}-rt`, command: "sleep 120", timeMinutes: 1 });
  await waitFor("running", () => compute.status(long), (s) => s === "RUNNING", 30_000, 250);
  await compute.cancelMany([long]);
  assert.equal(await ended(long), "CANCELLED");
  assert.equal(await ended(timeout, 120_000), "TIMEOUT");
});

geIt("a job name GE refuses is refused before qsub (exit 2), naming the rule", 10_000, async () => {
  await assert.rejects(submit({ jobName: "1starts-with-digit", command: "true" }), SgeJobNameError);
  await assert.rejects(submit({ jobName: "a:b", command: "true" }), /Grid Engine/);
  assert.equal(existsSync(work()), true);
});
