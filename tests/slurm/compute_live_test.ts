// test.sh: alone — it stops slurmdbd and slurmctld, which every other live test's jobs need
/**
 * SlurmCompute against a real cluster (scripts/slurm-testbed): every verb,
 * every JobSpec field the testbed supports, every end state, and the outages
 * the fail-safe design exists for. One file because the TIMEOUT job takes
 * 65–90 s: it is submitted first and awaited last, the rest runs meanwhile.
 */
import { slurmAtLeast } from "../helpers/slurm_version.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import { SlurmError, SlurmQueryError } from "../../src/compute/errors.ts";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { GONE } from "../../src/compute/states.ts";
import { setLogLevel } from "../../src/log.ts";
import {
  live,
  liveIt,
  observedSummary,
  observeReason,
  observeState,
  slurmCommand,
  testbed,
  waitFor,
} from "../helpers/slurm_live.ts";

const compute = new SlurmCompute({ commandTimeoutMs: 30_000 });
/**
 * For the outage tests: one try per command, so the daemon is down for as
 * short a time as the assertions need (retries, tested on their own, would
 * keep it down for tens of seconds and push the TIMEOUT job past its window).
 */
const oneTry = new SlurmCompute({ commandTimeoutMs: 30_000, retry: { attempts: 1 } });
/** Unique per run, so names never collide with an earlier run's jobs. */
const TAG = `live-${Date.now().toString(36)}`;
const NEVER_SUBMITTED = "987654321";
const submitted: string[] = [];
let workDir = "";
let timeoutJob = "";

function work(): string {
  if (!workDir) workDir = tempDir("outerloop-live-");
  return workDir;
}

async function submit(fields: Partial<JobSpec> & { readonly jobName: string }): Promise<string> {
  const spec: JobSpec = { account: "acct_a", partition: "", timeMinutes: 5, mem: "100M", ...fields };
  const id = await compute.submit(spec);
  submitted.push(id);
  return id;
}

const state = async (id: string) => observeState(await compute.status(id));
const reason = async (id: string) => observeReason(await compute.pendingReason(id));
const untilState = (id: string, pred: (s: string) => boolean, timeoutMs = 30_000) =>
  waitFor(`job ${id}'s state`, () => state(id), pred, timeoutMs, 250);
const is = (want: string) => (s: string) => s === want;

/** `scontrol show job` as key → value (values without spaces only). */
async function showJob(id: string): Promise<Map<string, string>> {
  const out = await slurmCommand(["scontrol", "show", "job", id]);
  const fields = new Map<string, string>();
  for (const token of out.split(/\s+/)) {
    const eq = token.indexOf("=");
    if (eq > 0 && !fields.has(token.slice(0, eq))) fields.set(token.slice(0, eq), token.slice(eq + 1));
  }
  return fields;
}

// SlurmCompute logs each submission; scoped to this file (bun shares modules across files)
before(() => setLogLevel("quiet"));

after(async () => {
  setLogLevel("info");
  if (live.kind !== "run") return;
  for (const id of submitted) await compute.cancel(id);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  process.stderr.write(`${observedSummary()}\n`);
});

liveIt("the testbed is up and a --time=1 job is started first, to end in TIMEOUT", 120_000, async () => {
  await testbed("up");
  timeoutJob = await submit({ jobName: `${TAG}-timeout`, timeMinutes: 1, command: "sleep 600" });
  assert.match(timeoutJob, /^[0-9]+$/);
  await untilState(timeoutJob, is("RUNNING"));
});

liveIt("submit passes every field of a script job through to Slurm", 60_000, async () => {
  const script = path.join(work(), "args.sh");
  writeFileSync(
    script,
    '#!/bin/sh\nprintf "arg:%s\\n" "$@"\necho "cpus=$SLURM_CPUS_PER_TASK account=$SLURM_JOB_ACCOUNT"\n',
  );
  chmodSync(script, 0o755);
  const output = path.join(work(), "args.out");
  const id = await submit({
    jobName: `${TAG}-fields`,
    account: "acct_b",
    partition: "cpu",
    timeMinutes: 3,
    script,
    scriptArgs: ["two words", "it's $HOME"],
    cpus: 2,
    mem: "300M",
    qos: "normal",
    output,
    extra: ["--comment=outerloop-live"],
  });
  const job = await showJob(id);
  assert.equal(job.get("JobName"), `${TAG}-fields`);
  assert.equal(job.get("Account"), "acct_b");
  assert.equal(job.get("Partition"), "cpu");
  assert.equal(job.get("QOS"), "normal");
  assert.equal(job.get("TimeLimit"), "00:03:00");
  assert.equal(job.get("NumCPUs"), "2");
  assert.equal(job.get("MinMemoryNode"), "300M");
  assert.equal(job.get("Comment"), "outerloop-live");
  assert.equal(job.get("StdOut"), output);
  await untilState(id, is("COMPLETED"));
  assert.equal(readFileSync(output, "utf8"), "arg:two words\narg:it's $HOME\ncpus=2 account=acct_b\n");
});

liveIt("status follows a command job to COMPLETED and elapsedSeconds reads its run time", 60_000, async () => {
  const id = await submit({ jobName: `${TAG}-ok`, command: "sleep 3" });
  const seen: string[] = [];
  await waitFor(
    `job ${id} to complete`,
    async () => {
      const s = await state(id);
      if (seen.at(-1) !== s) seen.push(s);
      return s;
    },
    is("COMPLETED"),
    30_000,
    100,
  );
  // never a step backwards: (GONE) (PENDING) (RUNNING) COMPLETED
  const order = [GONE, "PENDING", "RUNNING", "COMPLETED"];
  assert.deepEqual(seen, [...seen].sort((a, b) => order.indexOf(a) - order.indexOf(b)), seen.join(" → "));
  const elapsed = await compute.elapsedSeconds(id);
  assert.ok(elapsed !== null && elapsed >= 3 && elapsed < 30, `elapsed ${elapsed}`);
});

liveIt("a command that exits non-zero ends FAILED", 60_000, async () => {
  const id = await submit({ jobName: `${TAG}-fail`, command: "exit 3" });
  assert.equal(await untilState(id, (s) => s !== GONE && s !== "PENDING" && s !== "RUNNING"), "FAILED");
});

liveIt("a job on the gpu partition gets a GPU and jobPartition says gpu", 60_000, async () => {
  const output = path.join(work(), "gpu.out");
  const id = await submit({
    jobName: `${TAG}-gpu`,
    partition: "gpu",
    gpus: 1,
    output,
    command: 'echo "gpus=$CUDA_VISIBLE_DEVICES"; sleep 600',
  });
  assert.equal(await compute.jobPartition(id), "gpu");
  // scontrol spells a job's GPU request gres:gpu:1 on 22.05 and gres/gpu:1 from 23.02 on (TRES names)
  const tres = (await slurmAtLeast(23, 2)) ? "gres/gpu:1" : "gres:gpu:1";
  assert.equal((await showJob(id)).get("TresPerNode"), tres);
  await untilState(id, is("RUNNING"));
  // RUNNING comes before the step daemon has opened the output file (under load on 24.11: ENOENT)
  const text = async () => existsSync(output) ? readFileSync(output, "utf8") : "";
  await waitFor("the job's output", text, (t) => t.includes("\n"), 10_000, 250);
  assert.equal(readFileSync(output, "utf8"), "gpus=0\n");
  await compute.cancel(id);
});

liveIt("an afterany dependency on a running job pends as Dependency, then runs once it ends", 60_000, async () => {
  const holder = await submit({ jobName: `${TAG}-holder`, command: "sleep 600" });
  await untilState(holder, is("RUNNING"));
  const dependent = await submit({ jobName: `${TAG}-dependent`, command: "true", dependency: `afterany:${holder}` });
  assert.equal(
    await waitFor("the Dependency reason", () => reason(dependent), is("Dependency"), 15_000, 250),
    "Dependency",
  );
  assert.equal(await untilState(dependent, (s) => s !== GONE), "PENDING");
  await compute.cancel(holder);
  assert.equal(await untilState(dependent, is("COMPLETED")), "COMPLETED");
});

liveIt("a job with --begin=now+60 pends as BeginTime in the default partition", 60_000, async () => {
  const id = await submit({ jobName: `${TAG}-begin`, command: "true", begin: "now+60" });
  assert.equal(await waitFor("the BeginTime reason", () => reason(id), is("BeginTime"), 15_000, 250), "BeginTime");
  assert.equal(await compute.jobPartition(id), "cpu");
  await compute.cancel(id);
  assert.match(await untilState(id, (s) => s.startsWith("CANCELLED")), /^CANCELLED by 0$/);
});

liveIt("cancel ends a running job as CANCELLED by 0 and is harmless on finished and unknown ids", 60_000, async () => {
  const id = await submit({ jobName: `${TAG}-cancel`, command: "sleep 600" });
  await untilState(id, is("RUNNING"));
  await compute.cancel(id);
  const ended = await untilState(id, (s) => s.startsWith("CANCELLED"));
  assert.equal(ended, "CANCELLED by 0");
  const done = await submit({ jobName: `${TAG}-done`, command: "true" });
  await untilState(done, is("COMPLETED"));
  await compute.cancel(id);
  await compute.cancel(done);
  await compute.cancel(NEVER_SUBMITTED);
  assert.equal(await state(id), "CANCELLED by 0");
  assert.equal(await state(done), "COMPLETED");
});

liveIt("two live jobs with one name are both found by name, and statuses reads them in one query", 60_000, async () => {
  const name = `${TAG}-twin`;
  const first = await submit({ jobName: name, command: "sleep 600" });
  const second = await submit({ jobName: name, command: "sleep 600" });
  const names = await compute.activeJobNames();
  assert.equal(names.filter((n) => n === name).length, 2, names.join(","));
  assert.ok([first, second].includes(await compute.jobIdForName(name)));
  assert.deepEqual((await compute.activeJobs()).get(name)?.map((j) => j.id).sort(), [first, second].sort());
  const both = await waitFor(
    "sacct to know both jobs",
    () => compute.statuses([first, second, NEVER_SUBMITTED]),
    (m) => m.size === 2,
    15_000,
    250,
  );
  for (const s of both.values()) observeState(s);
  assert.ok(!both.has(NEVER_SUBMITTED));
  await compute.cancel(first);
  await compute.cancel(second);
  assert.equal(
    await waitFor("the queue to forget the name", () => compute.jobIdForName(name), is(""), 15_000, 250),
    "",
  );
  const ended = await waitFor(
    "both jobs to end CANCELLED",
    () => compute.statuses([first, second], new Date(Date.now() - 3_600_000)),
    (m) => [...m.values()].every((s) => s.startsWith("CANCELLED")) && m.size === 2,
    15_000,
  );
  assert.deepEqual([...ended.values()], ["CANCELLED by 0", "CANCELLED by 0"]);
});

liveIt("an unknown account is refused with a SlurmError carrying sbatch's stderr", 30_000, async () => {
  await assert.rejects(
    compute.submit({
      jobName: `${TAG}-badacct`,
      account: "no_such_account",
      partition: "",
      timeMinutes: 1,
      command: "true",
    }),
    (err: unknown) =>
      err instanceof SlurmError && /Invalid account or account\/partition combination/.test(err.message),
  );
});

liveIt("an id that was never submitted is GONE with no elapsed time", 30_000, async () => {
  assert.equal(await state(NEVER_SUBMITTED), GONE);
  assert.equal(await compute.elapsedSeconds(NEVER_SUBMITTED), null);
});

liveIt(
  "with slurmdbd down status raises SlurmQueryError, never GONE, and is right again once it is back",
  120_000,
  async () => {
    const id = await submit({ jobName: `${TAG}-dbd`, command: "true" });
    await untilState(id, is("COMPLETED"));
    await testbed("stop", "slurmdbd");
    let during = "";
    try {
      await assert.rejects(oneTry.status(id), SlurmQueryError);
      await assert.rejects(oneTry.elapsedSeconds(id), SlurmQueryError);
      await assert.rejects(oneTry.statuses([id]), SlurmQueryError);
      during = await submit({ jobName: `${TAG}-during-dbd`, command: "true" });
    } finally {
      await testbed("start", "slurmdbd");
    }
    assert.equal(await state(id), "COMPLETED");
    assert.equal(await untilState(during, is("COMPLETED")), "COMPLETED");
  },
);

liveIt("with slurmctld down squeue verbs raise SlurmQueryError and submit raises SlurmError", 120_000, async () => {
  const id = await submit({ jobName: `${TAG}-ctld`, command: "true" });
  await untilState(id, is("COMPLETED"));
  await testbed("stop", "slurmctld");
  try {
    // concurrently: each client retries the dead controller for seconds
    await Promise.all([
      assert.rejects(oneTry.pendingReason(id), SlurmQueryError),
      assert.rejects(oneTry.jobPartition(id), SlurmQueryError),
      assert.rejects(oneTry.activeJobNames(), SlurmQueryError),
      assert.rejects(oneTry.jobIdForName(`${TAG}-ctld`), SlurmQueryError),
      assert.rejects(oneTry.activeJobs(), SlurmQueryError),
      assert.rejects(
        oneTry.submit({ jobName: `${TAG}-noctld`, account: "acct_a", partition: "", timeMinutes: 1, command: "true" }),
        SlurmError,
      ),
      oneTry.cancel(id),
    ]);
    // sacct asks slurmdbd, not the controller
    assert.equal(await state(id), "COMPLETED");
  } finally {
    await testbed("start", "slurmctld");
  }
  assert.ok(Array.isArray(await compute.activeJobNames()));
});

liveIt("the --time=1 job ends in TIMEOUT after at least a minute", 150_000, async () => {
  assert.ok(timeoutJob, "the first test did not submit the TIMEOUT job");
  assert.equal(await untilState(timeoutJob, (s) => s.startsWith("TIMEOUT"), 140_000), "TIMEOUT");
  const elapsed = await compute.elapsedSeconds(timeoutJob);
  assert.ok(elapsed !== null && elapsed >= 60 && elapsed < 120, `elapsed ${elapsed}`);
});
