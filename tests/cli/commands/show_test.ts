import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { withDefaults } from "../../../src/compute/job_spec.ts";
import { runPhase } from "../../../src/run/phase.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { formatMeasured } from "../../../src/text/numbers.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { fixedCase, seededRun, stalledTimingCase } from "../../helpers/seeded_run.ts";
import { textCell } from "../../helpers/surface_read.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * `show` and `resume`: the two quantities under their own `--json` keys
 * beside decision.json's (issue 14), the samples' spread and the pairs set
 * aside as outlying (issue 15).
 */

/** decision.json as a script reads it. */
// deno-lint-ignore no-explicit-any
type Json = any;

describe("show --json and resume --json say which quantity", () => {
  it("give improvement (the benchmark's estimate) and difference (candidate − baseline) beside the old keys", async () => {
    const { dir, compute } = await seededRun(stalledTimingCase(), tempDir("show-q-"));
    const d: Json = JSON.parse(readFileSync(dir.decision, "utf8"));
    const b = d.benchmark;
    const improvement = {
      n: 10,
      mean: b.mean,
      lower: b.lower,
      upper: b.upper,
      confidence: b.confidence,
      method: b.method,
      set_aside: [8],
      set_aside_why: "outlying by the generalized ESD test",
    };
    // minimize: the difference is the improvement negated, its interval negated and swapped
    const difference = { n: 10, mean: -b.mean, lower: -b.upper, upper: -b.lower, confidence: b.confidence };
    for (const args of [["show", dir.path, "--json"], ["resume", dir.path, "--json"]]) {
      const j: Json = JSON.parse((await cli(args, { compute })).stdout);
      assert.deepEqual(j.improvement, improvement, args[0]);
      assert.deepEqual(j.difference, difference, args[0]);
      // the old keys stay: scripts rely on them
      assert.deepEqual(j.benchmark, b, args[0]);
      assert.deepEqual(j.benchmark.set_aside, [8], args[0]);
      assert.deepEqual(j.verdict, d.verdict, args[0]);
      assert.ok(j.difference.mean < 0 && j.improvement.mean > 0, "a faster candidate: negative difference");
    }
    const resume: Json = JSON.parse((await cli(["resume", dir.path, "--json"], { compute })).stdout);
    assert.deepEqual(resume.deltas, d.deltas);
  });

  it("give a single pair's improvement and difference with no interval", async () => {
    const { dir, compute } = await seededRun(
      fixedCase("minimize", { baseline: 10, candidate: 9.5 }),
      tempDir("show-1-"),
    );
    const none = { lower: null, upper: null, confidence: null };
    for (const args of [["show", dir.path, "--json"], ["resume", dir.path, "--json"]]) {
      const j: Json = JSON.parse((await cli(args, { compute })).stdout);
      assert.deepEqual(j.improvement, {
        n: 1,
        mean: 0.5,
        ...none,
        method: "single pair, no interval",
        set_aside: [],
        set_aside_why: null,
      });
      assert.deepEqual(j.difference, { n: 1, mean: -0.5, ...none });
      if (args[0] === "resume") assert.deepEqual(j.deltas, { candidate: -0.5 });
      assert.equal(j.benchmark, undefined, "a single pair's decision has no benchmark key, as before");
    }
  });

  it("give null for both while the run is undecided", async () => {
    const { dir, compute } = parkedRun();
    await runPhase(dir, { compute, self: ["/bin/outerloop"], now: () => Date.now(), env: {} });
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.equal(j.improvement, null);
    assert.equal(j.difference, null);
  });
});

describe("show names the pairs set aside as outlying", () => {
  it("says which pair, why, and which measures", async () => {
    const { dir, compute } = await seededRun(stalledTimingCase(), tempDir("show-aside-"));
    const text = (await cli(["show", dir.path], { compute })).stdout;
    const line = /^set aside: pair 8 set aside, outlying by the generalized ESD test \(baseline#8, candidate#8\)$/m;
    assert.match(text, line, text);
    const resume = (await cli(["resume", dir.path], { compute })).stdout;
    assert.match(resume, line, resume);
  });

  it("says nothing of it when no pair was set aside", async () => {
    const { dir, compute } = await seededRun(
      fixedCase("minimize", { baseline: 10, candidate: 9.5 }),
      tempDir("show-no-"),
    );
    assert.doesNotMatch((await cli(["show", dir.path], { compute })).stdout, /set aside/);
  });
});

describe("show gives the spread of samples", () => {
  it("prints a samples table and each measure's samples in --json, from decision.json", async () => {
    const { dir, compute } = await seededRun(stalledTimingCase(), tempDir("show-samples-"));
    const d: Json = JSON.parse(readFileSync(dir.decision, "utf8"));
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.equal(j.measures.length, 20);
    for (const m of j.measures) assert.deepEqual(m.samples, d.samples[m.name], m.name);
    const text = (await cli(["show", dir.path], { compute })).stdout;
    const at = text.indexOf("samples (");
    assert.ok(at >= 0, text);
    const table = text.slice(text.indexOf("\n", at) + 1);
    assert.match(table, /^measure\s+n\s+min\s+median\s+max$/m);
    const lines = table.split("\n");
    const row = lines.findIndex((l) => l.startsWith("candidate#8 "));
    const s = d.samples["candidate#8"];
    assert.equal(textCell(table, row, "n", "right"), "7");
    assert.equal(textCell(table, row, "min", "right"), formatMeasured(s.min));
    assert.equal(textCell(table, row, "median", "right"), formatMeasured(s.median));
    assert.equal(textCell(table, row, "max", "right"), formatMeasured(s.max));
  });

  it("gives null samples and no table when every measure reported one number", async () => {
    const { dir, compute } = await seededRun(
      fixedCase("minimize", { baseline: 10, candidate: 9.5 }),
      tempDir("show-ns-"),
    );
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.deepEqual(j.measures.map((m: Json) => m.samples), [null, null]);
    assert.doesNotMatch((await cli(["show", dir.path], { compute })).stdout, /^samples/m);
  });

  it("reads them from the eval results of a run still measuring", async () => {
    const { dir, compute } = parkedRun();
    await runPhase(dir, { compute, self: ["/bin/outerloop"], now: () => Date.now(), env: {} });
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    const base = j.measures.find((m: Json) => m.name === "baseline");
    assert.equal(base.state, "done");
    assert.deepEqual(base.samples, { n: 3, min: 11.9, median: 12.1, max: 30.2 });
    assert.equal(j.measures.find((m: Json) => m.name === "candidate").samples, null);
    const text = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(text, /^baseline\s+3\s+11\.9\s+12\.1\s+30\.2$/m, text);
  });
});

/** A run whose baseline finished with three samples and whose candidate is still queued. */
describe("show's wake line", () => {
  it("names the wake of a parked run, and no longer once the run is decided (--json keeps it)", async () => {
    const { dir, compute } = parkedRun();
    await runPhase(dir, { compute, self: ["/bin/outerloop"], now: () => Date.now(), env: {} });
    const parked = await cli(["show", dir.path], { compute });
    assert.match(parked.stdout, /^wake job \d+ \(afterany:\d+(\?afternotok:\S+)*\), submitted /m);
    const candidate = compute.submitted.find((x) => withDefaults(x).script.includes("/eval-candidate-"))!;
    finishEvalJob(candidate, { ms: [10.1, 10.0, 9.9] });
    compute.live = new Map();
    await runPhase(dir, { compute, self: ["/bin/outerloop"], now: () => Date.now(), env: {} });
    const decided = await cli(["show", dir.path], { compute });
    assert.match(decided.stdout, /verdict: /);
    assert.doesNotMatch(decided.stdout, /wake job/);
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.equal(j.state, "decided");
    assert.match(j.wake.job_id, /^\d+$/);
  });
});

function parkedRun(): { dir: RunDir; compute: FakeCompute } {
  const dir = new RunDir(join(tempDir("show-open-"), "r1"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({}, { metric: "ms", direction: "minimize" }));
  const compute = new FakeCompute();
  compute.onSubmit = (spec, id) => {
    if (!spec.jobName.startsWith("eval-")) return;
    if (withDefaults(spec).script.includes("/eval-baseline-")) finishEvalJob(spec, { ms: [12.1, 30.2, 11.9] });
    else compute.live!.set(spec.jobName, [id]);
  };
  return { dir, compute };
}
