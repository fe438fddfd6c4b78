// test.sh: alone — it changes this process's working directory, which deno's parallel workers share
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { elapsedOnly, type JobUsage } from "../../../src/compute/usage.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { type RunRecord, writeRunRecord } from "../../../src/rundir/run_record.ts";
import { wakeJobName } from "../../../src/rundir/wake_record.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * `runs`, `report`, `cancel RUN_DIR` and `show`'s resource use, in-process,
 * on a climb of four runs made by `resume` on a fake scheduler: r1 decided
 * (accept), r2 failed (its candidate crashed), r3 parked then cancelled, r4
 * parked.
 */

const SHA = (c: string) => c.repeat(40);

async function climb() {
  const root = join(tempDir("cli-climb-"), "climb");
  const compute = new FakeCompute();
  const make = (tag: string, hour: number, over: Partial<RunRecord> = {}) => {
    const dir = new RunDir(join(root, tag));
    mkdirSync(dir.path, { recursive: true });
    writeRunRecord(dir, runRecordFixture({ runTag: tag, createdAt: `2026-01-0${hour}T10:00:00.000Z`, ...over }));
    return dir;
  };
  const evalsOf = (from: number) => compute.submitted.slice(from).filter((s) => s.jobName.startsWith("eval-"));
  // r1: both jobs finish inside submit; decided at once
  const r1 = make("r1", 1);
  compute.onSubmit = (spec) =>
    spec.jobName.startsWith("eval-") &&
    finishEvalJob(spec, { score: 10 + (spec.jobName.includes("candidate") ? 2 : 0) });
  assert.equal((await cli(["resume", r1.path], { compute, now: Date.parse("2026-01-01T10:05:00Z") })).code, 0);
  compute.onSubmit = () => {};
  // r2: parks, then its baseline fails (a failed run: a candidate's crash would be a verdict)
  const r2 = make("r2", 2, { baseSha: SHA("c") });
  let from = compute.submitted.length;
  assert.equal((await cli(["resume", r2.path], { compute })).code, 75);
  const [b2, c2] = evalsOf(from);
  finishEvalJob(c2!, { score: 12 });
  finishEvalJob(b2!, null, 1);
  assert.equal((await cli(["resume", r2.path], { compute, now: Date.parse("2026-01-02T10:01:00Z") })).code, 3);
  // r3 and r4: parked, their evals and wakes listed
  const r3 = make("r3", 3, { baseSha: SHA("d") });
  const r4 = make("r4", 4, { baseSha: SHA("e") });
  const live = new Map<string, string[]>();
  for (const dir of [r3, r4]) {
    from = compute.submitted.length;
    assert.equal((await cli(["resume", dir.path], { compute })).code, 75);
    const subs = compute.submitted.slice(from);
    subs.forEach((s, i) => live.set(s.jobName, [String(1000 + from + i)]));
  }
  compute.live = live;
  compute.calls = [];
  return { root, compute, r1, r2, r3, r4 };
}

describe("outerloop runs", () => {
  it("lists every run oldest first from the files alone, asking the scheduler nothing", async () => {
    const c = await climb();
    const r = await cli(["runs", c.root], { compute: c.compute });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(c.compute.calls, []);
    const lines = r.stdout.trimEnd().split("\n");
    assert.match(
      lines[0]!,
      /^tag\s+created \(UTC\)\s+base -> candidate\s+state\s+verdict\s+difference\s+improvement\s+improvement interval\s+relative\s+n\s+wall$/,
    );
    assert.match(
      lines[1]!,
      /^r1\s+2026-01-01 10:00\s+aaaaaaaaaa -> bbbbbbbbbb\s+decided\s+accept\s+\+2\s+\+2\s+\+20\.0%\s+1\s+5m00s$/,
    );
    assert.match(lines[2]!, /^r2\s+2026-01-02 10:00\s+cccccccccc -> bbbbbbbbbb\s+failed\s+1m00s$/);
    assert.equal(lines[3], "  failed: measure baseline (job 1002): Eval command exited with code 1");
    assert.match(lines[4]!, /^r3\s+.*\s+parked$/);
    assert.match(lines[5]!, /^r4\s+.*\s+parked$/);
    const json = JSON.parse((await cli(["runs", c.root, "--json"], { compute: c.compute })).stdout);
    assert.deepEqual(
      json.runs.map((
        x: { tag: string; state: string; verdict: string | null; live: null },
      ) => [x.tag, x.state, x.verdict, x.live]),
      [
        ["r1", "decided", "accept", null],
        ["r2", "failed", null, null],
        ["r3", "parked", null, null],
        ["r4", "parked", null, null],
      ],
    );
    assert.equal(json.runs[1].candidate, 12);
  });

  it("--live tells open runs with live jobs from those waiting on nothing, from ONE listing", async () => {
    const c = await climb();
    for (const name of [...c.compute.live!.keys()]) {
      if (name === wakeJobName("r4", c.r4) || name.startsWith("eval-r4-")) c.compute.live!.delete(name);
    }
    const r = await cli(["runs", c.root, "--live"], { compute: c.compute });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(c.compute.calls, ["squeue"]);
    assert.match(r.stdout, /^r3\s+.*parked \(live\)$/m);
    assert.match(r.stdout, /^r4\s+.*parked \(nothing live\)$/m);
    assert.match(r.stderr, /"nothing live" waits on nothing: "outerloop wait RUN_DIR" carries it on/);
    c.compute.live = null;
    const down = await cli(["runs", c.root, "--live", "--json"], { compute: c.compute });
    assert.equal(down.code, 4);
    assert.match(down.stderr, /cannot list the queue .*liveness unknown/);
    assert.equal(JSON.parse(down.stdout).runs.length, 4, "the listing still prints");
  });

  it("--live and show name a parked run whose jobs run but whose wake is gone, and say resume re-arms it", async () => {
    const c = await climb();
    c.compute.live!.delete(wakeJobName("r3", c.r3)); // scancelled by hand: its evals run on, nothing will wake it
    const r = await cli(["runs", c.root, "--live"], { compute: c.compute });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^r3\s+.*parked \(live, no wake\)$/m);
    assert.match(r.stdout, /^r4\s+.*parked \(live\)$/m);
    assert.match(r.stderr, /"no wake" is never resumed when its jobs end: "outerloop resume RUN_DIR" re-arms it/);
    const show = await cli(["show", c.r3.path], { compute: c.compute });
    assert.match(
      show.stdout,
      new RegExp(
        `^warning: no wake job is queued or running for this parked run: its jobs run, but nothing will resume the run when they end; "outerloop resume ${c.r3.path}" re-arms it`,
        "m",
      ),
    );
    const shown = JSON.parse((await cli(["show", c.r4.path, "--json"], { compute: c.compute })).stdout);
    assert.deepEqual(shown.warnings, [], "a parked run with its wake queued has nothing to warn of");
  });

  it("skips a run dir whose files are damaged with a warning naming the file, and refuses a missing DIR", async () => {
    const c = await climb();
    writeFileSync(c.r2.decision, "{");
    const r = await cli(["runs", c.root], { compute: c.compute });
    assert.equal(r.code, 0);
    assert.match(r.stderr, new RegExp(`warning: skipping ${c.r2.path}: The decision .*decision.json" is damaged`));
    assert.equal(r.stdout.trimEnd().split("\n").length, 4);
    const missing = await cli(["runs", join(c.root, "nope")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /DIR ".*nope" is not a directory/);
  });
});

describe("outerloop report", () => {
  it("writes a climb as Markdown on stdout and as one self-contained HTML file", async () => {
    const c = await climb();
    const md = await cli(["report", c.root, "--md"], { compute: c.compute });
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /^### Climb of `toy`: 4 runs/);
    assert.match(md.stdout, /\| 1 \| `r1` \|/);
    const file = join(tempDir("cli-report-"), "climb.html");
    const html = await cli(["report", c.root, "--html", file], { compute: c.compute });
    assert.equal(html.code, 0, html.stderr);
    assert.equal(html.stdout, "");
    assert.match(html.stderr, new RegExp(`wrote ${file}`));
    const page = readFileSync(file, "utf8");
    assert.match(page, /^<!DOCTYPE html>/i);
    assert.doesNotMatch(page, /(src|href)="https?:/, "nothing fetched from the network");
    assert.deepEqual(c.compute.calls, []);
  });

  it("reports one run when PATH holds run.json", async () => {
    const c = await climb();
    const md = await cli(["report", c.r1.path, "--md"]);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /^### `toy`: accept/);
  });

  it("refuses both or neither of --md and --html, and a directory without runs", async () => {
    const c = await climb();
    for (const flags of [[], ["--md", "--html", "x.html"]]) {
      const r = await cli(["report", c.root, ...flags]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Give exactly one of --md and --html FILE/);
    }
    const empty = await cli(["report", tempDir("cli-report-empty-"), "--md"]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /is neither a run dir \(no run.json\) nor a climb/);
  });
});

describe("outerloop cancel RUN_DIR", () => {
  it("cancels a parked run's evals and wake with one scancel; then show, resume and wait say so", async () => {
    const c = await climb();
    const r = await cli(["cancel", c.r3.path], { compute: c.compute, now: Date.parse("2026-01-03T11:00:00Z") });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(c.compute.cancelled.length, 1);
    const ids = c.compute.cancelled[0]!;
    assert.equal(ids.length, 3, "two evals and the wake");
    assert.equal(ids.at(-1), JSON.parse(readFileSync(c.r3.wakeRecord, "utf8")).job_id);
    assert.equal(
      r.stdout,
      `cancelled run ${c.r3.path} on 2026-01-03T11:00:00.000Z: cancelled job(s) ${ids.join(", ")}\n`,
    );
    assert.deepEqual(c.compute.calls, ["squeue", "scancel"]);

    const show = await cli(["show", c.r3.path], { compute: c.compute });
    assert.equal(show.code, 0);
    assert.match(show.stdout, /^baseline\s+cancelled\s+\d+\s+cancelled by user$/m);
    assert.match(show.stdout, /^cancelled by user on 2026-01-03T11:00:00.000Z \(jobs .*\): no verdict$/m);
    assert.doesNotMatch(show.stdout, /vanished/);
    const submitted = c.compute.submitted.length;
    const resume = await cli(["resume", c.r3.path], { compute: c.compute });
    assert.equal(resume.code, 3);
    assert.match(resume.stderr, /was cancelled by user on 2026-01-03T11:00:00.000Z: nothing more is dispatched/);
    assert.equal(c.compute.submitted.length, submitted, "a cancelled run dispatches nothing");
    assert.equal((await cli(["wait", c.r3.path], { compute: c.compute })).code, 3);
    assert.equal(JSON.parse((await cli(["runs", c.root, "--json"])).stdout).runs[2].state, "cancelled");

    const again = await cli(["cancel", c.r3.path, "--json"], { compute: c.compute });
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout), {
      run_dir: c.r3.path,
      cancelled: true,
      state: "cancelled",
      cancelled_at: "2026-01-03T11:00:00.000Z",
      already: true,
      jobs: [],
    });
  });

  it("leaves a decided run as it is, and reads digits as a job id unless written ./123", async () => {
    const c = await climb();
    const r = await cli(["cancel", c.r1.path], { compute: c.compute });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /was decided \(accept\) on .*: nothing to cancel/);
    assert.equal(existsSync(c.r1.cancelled), false);
    assert.deepEqual(c.compute.calls, []);
    // a failed run stays failed; only a job of it still listed (its wake, here) is cancelled
    c.compute.live!.set(wakeJobName("r2", c.r2), ["4242"]);
    const failed = await cli(["cancel", c.r2.path], { compute: c.compute });
    assert.equal(failed.code, 0, failed.stderr);
    assert.match(
      failed.stdout,
      /^run .*r2 failed on 2026-01-02T10:01:00.000Z \(measure baseline \(job 1002\): .*\): cancelled its leftover job\(s\) 4242$/m,
    );
    assert.equal(existsSync(c.r2.cancelled), false);
    const job = await cli(["cancel", "123", "--json"], { compute: c.compute });
    assert.deepEqual(JSON.parse(job.stdout), { job_id: "123", cancelled: true });
    const numbered = join(c.root, "123");
    mkdirSync(numbered);
    writeRunRecord(new RunDir(numbered), runRecordFixture({ runTag: "n123" }));
    const cwd = process.cwd();
    process.chdir(c.root);
    try {
      const dir = await cli(["cancel", "./123", "--json"], { compute: c.compute });
      assert.equal(dir.code, 0, dir.stderr);
      assert.equal(JSON.parse(dir.stdout).run_dir, numbered);
    } finally {
      process.chdir(cwd);
    }
    assert.match((await cli(["cancel", "--help"])).stdout, /write a run dir named with digits only as \.\/123/);
  });
});

describe("outerloop show: resource use", () => {
  it("prints each finished measure's figures from one sacct and warns near a limit", async () => {
    const c = await climb();
    const usage = (id: string, over: Partial<JobUsage>): JobUsage => ({
      ...elapsedOnly(id, "COMPLETED", 30),
      timelimitS: 300,
      maxRssBytes: 50 * 1024 ** 2,
      reqMemBytes: 2 * 1024 ** 3,
      allocCpus: 1,
      totalCpuS: 27,
      cpuEfficiency: 0.9,
      ...over,
    });
    const [base, cand] = JSON.parse((await cli(["show", c.r2.path, "--json"], { compute: c.compute })).stdout).measures;
    c.compute.usages = new Map([
      [base.job_id, usage(base.job_id, {})],
      [cand.job_id, usage(cand.job_id, { elapsedS: 290, maxRssBytes: 1.9 * 1024 ** 3 })],
    ]);
    c.compute.calls = [];
    const r = await cli(["show", c.r2.path], { compute: c.compute });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(c.compute.calls, ["sacct"], "both are finished: no listing, one sacct");
    assert.match(r.stdout, /^resource use:$/m);
    assert.match(r.stdout, /^baseline\s+\d+\s+30s\s+5m00s\s+50 MiB\s+2 GiB\s+1\s+90%$/m);
    assert.match(r.stdout, /^warning: measure candidate ran 4m50s of its 5m00s walltime \(97%\): raise eval_minutes/m);
    assert.match(
      r.stdout,
      /^warning: measure candidate peaked at 1.9 GiB of its 2 GiB memory \(95%\): raise eval_mem in the contract$/m,
    );
    assert.match(
      r.stdout,
      /^failed on 2026-01-02T10:01:00.000Z: measure baseline \(job 1002\): Eval command exited with code 1$/m,
    );
    const json = JSON.parse((await cli(["show", c.r2.path, "--json"], { compute: c.compute })).stdout);
    assert.equal(json.measures[0].usage.elapsed_s, 30);
    assert.equal(json.measures[1].usage.cpu_efficiency, 0.9);
    assert.equal(json.warnings.length, 2);
    assert.deepEqual(json.failure, {
      measure: "baseline",
      job_id: "1002",
      kind: "exit",
      cause: "eval command exited with code 1",
      message: "measure baseline (job 1002): Eval command exited with code 1",
      failed_at: "2026-01-02T10:01:00.000Z",
    });
    assert.equal(json.cancelled, null);
  });
});
