import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { type RunRecord, writeRunRecord } from "../../src/rundir/run_record.ts";
import { pairSeed } from "../../src/stats/pair_seed.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { REFERENCE_CACHE_KEYS, runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const deps = (compute: FakeCompute) => ({ compute, self: ["/opt/bin/outerloop"], now: Date.now, env: {} });

/** The measure an eval job spec is for, from its eval dir `eval-<name>-<tree sha>-<hex>`. */
function measureOf(spec: JobSpec): string {
  const dir = basename(dirname(withDefaults(spec).script));
  return /^eval-(.*)-[0-9a-f]{40}-[0-9a-f]{40}$/.exec(dir)![1]!;
}

/** The seed an eval job runs under (the `SEED=` its script sets). */
function seedOf(spec: JobSpec): number {
  return Number(/ '?SEED=(\d+)/.exec(readFileSync(withDefaults(spec).script, "utf8"))?.[1] ?? "0");
}

/** A run dir beside its climb's baseline cache, with `rec` frozen in it. */
function newRun(rec: RunRecord, climb = tempDir("paired-"), name = "run"): RunDir {
  const dir = new RunDir(join(climb, name));
  writeRunRecord(dir, rec);
  return dir;
}

/** Finishes every eval job inside submit with `value(measure)`. */
function finishing(compute: FakeCompute, value: (measure: string) => number): void {
  compute.onSubmit = (spec) => {
    if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: value(measureOf(spec)) });
  };
}

describe("runPhase() on samples per measure", () => {
  it("summarizes each array by the contract's summary, keeps the spread, and sets a stalled pair aside", async () => {
    const rec = runRecordFixture({}, { repeats: 6, min_effect: 1, direction: "minimize", summary: "min" });
    const compute = new FakeCompute();
    // seven timings per measure, the fastest 10 (baseline) or 5 (candidate) give or take a little by pair;
    // pair 4's candidate job stalled: its fastest sample is still 50
    const jitter: Record<string, number> = { "": 0, "#2": 0.2, "#3": -0.1, "#4": 0, "#5": 0.3, "#6": -0.2 };
    const samples = (m: string) => {
      const fast = m.startsWith("baseline") ? 10 : 5 + jitter[m.slice("candidate".length)]!;
      return m === "candidate#4"
        ? [52, 50, 51, 55, 50.5, 53, 54]
        : [0.2, 0, 0.4, 20, 0.1, 0.3, 0.2].map((x) => fast + x);
    };
    compute.onSubmit = (spec) => {
      if (spec.jobName.startsWith("eval-")) finishEvalJob(spec, { score: samples(measureOf(spec)) });
    };
    const dir = newRun(rec);
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "decided");
    const d = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(d.values["baseline#2"], 10);
    assert.equal(d.values["candidate#2"], 5.2);
    assert.equal(d.values["candidate#4"], 50);
    assert.deepEqual(d.samples["baseline"], { n: 7, min: 10, median: 10.2, max: 30 });
    assert.deepEqual(d.samples["candidate#4"], { n: 7, min: 50, median: 52, max: 55 });
    assert.equal(Object.keys(d.samples).length, 12);
    assert.equal(d.verdict, "accept");
    assert.deepEqual(d.benchmark.set_aside, [4]);
    assert.match(d.reasons[0], /over 5 of 6 pairs \(1 outlying pair set aside: pair 4; /);
  });
});

describe("runPhase() with paired repeats", () => {
  it("dispatches the first look's pairs at once, each on its own seed, base first in odd pairs, and parks behind one wake", async () => {
    const rec = runRecordFixture({}, { repeats: 3, max_repeats: 6 });
    const compute = new FakeCompute();
    const outcome = await runPhase(newRun(rec), deps(compute));
    assert.equal(outcome.kind, "parked");
    const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
    // base first in odd pairs, candidate first in even ones: a drift over the run cancels over the pairs
    assert.deepEqual(evals.map(measureOf), [
      "baseline",
      "candidate",
      "candidate#2",
      "baseline#2",
      "baseline#3",
      "candidate#3",
    ]);
    const seeds = [1, 2, 3].map((i) => pairSeed(rec.seed, i));
    assert.equal(seeds[0], rec.seed);
    assert.deepEqual(evals.map(seedOf), seeds.flatMap((s) => [s, s]));
    assert.equal(new Set(seeds).size, 3);
    const wakes = compute.submitted.filter((s) => s.jobName.startsWith("wake-"));
    assert.equal(wakes.length, 1);
    // the look's six measures are the six tasks of one job array (in the order above): the wake waits on it
    assert.deepEqual(compute.arrays.map((a) => [a.id, a.tasks]), [["1000", 6]]);
    // ... or the first of the candidate tasks to fail (fail fast)
    assert.equal(
      withDefaults(wakes[0]!).dependency,
      "afterany:1000?afternotok:1000_1?afternotok:1000_2?afternotok:1000_5",
    );
  });

  it("accepts at the first look when the interval clears min_effect, keeping seeds and estimates", async () => {
    const rec = runRecordFixture({}, { repeats: 3, max_repeats: 6, min_effect: 1 });
    const compute = new FakeCompute();
    const diffs: Record<string, number> = { "": 5, "#2": 5.1, "#3": 4.9 };
    finishing(compute, (m) => m.startsWith("baseline") ? 10 : 10 + diffs[m.slice("candidate".length)]!);
    const dir = newRun(rec);
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "decided");
    const d = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(d.verdict, "accept");
    assert.equal(d.n, 3);
    assert.deepEqual(d.seeds, [1, 2, 3].map((i) => pairSeed(rec.seed, i)));
    assert.equal(d.benchmark.n, 3);
    assert.ok(d.benchmark.lower > 1, JSON.stringify(d.benchmark));
    assert.match(
      d.reasons[0],
      /group-sequential paired screened Student t \(outlying pairs set aside from 6 pairs on, by the generalized ESD test\), look 1 of 2/,
    );
    assert.equal(compute.submitted.length, 6, "no second batch once accepted");
    assert.deepEqual(Object.keys(d.values).sort(), [
      "baseline",
      "baseline#2",
      "baseline#3",
      "candidate",
      "candidate#2",
      "candidate#3",
    ]);
  });

  it("measures another batch when the first look cannot tell, then decides at the second", async () => {
    const rec = runRecordFixture({}, { repeats: 3, max_repeats: 6, min_effect: 0 });
    const compute = new FakeCompute();
    const diff = (m: string) => ({ "": 1, "#2": 3, "#3": 2, "#4": 2.5, "#5": 1.5, "#6": 2 })[m] ?? NaN;
    finishing(compute, (m) => m.startsWith("baseline") ? 10 : 10 + diff(m.slice("candidate".length)));
    const dir = newRun(rec);
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "decided");
    const d = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(d.n, 6);
    assert.equal(d.verdict, "accept");
    assert.equal(compute.submitted.filter((s) => s.jobName.startsWith("eval-")).length, 12);
  });

  it("parks on the second batch alone and decides on the wake, dispatching nothing twice", async () => {
    const rec = runRecordFixture({}, { repeats: 2, max_repeats: 4, min_effect: 0 });
    const compute = new FakeCompute();
    const dir = newRun(rec);
    const first = await runPhase(dir, deps(compute));
    assert.equal(first.kind, "parked");
    const value = (m: string) =>
      m.startsWith("baseline") ? 10 : ({ "": 11, "#2": 13, "#3": 12, "#4": 12.5 })[
        m.slice("candidate".length)
      ]!;
    for (const s of compute.submitted.filter((s) => s.jobName.startsWith("eval-"))) {
      finishEvalJob(s, { score: value(measureOf(s)) });
    }
    const second = await runPhase(dir, deps(compute));
    assert.equal(second.kind, "parked", "the first look cannot tell: the second batch is dispatched");
    const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
    assert.deepEqual(evals.slice(4).map(measureOf), ["baseline#3", "candidate#3", "candidate#4", "baseline#4"]);
    for (const s of evals.slice(4)) finishEvalJob(s, { score: value(measureOf(s)) });
    const third = await runPhase(dir, deps(compute));
    assert.equal(third.kind, "decided");
    assert.equal(compute.submitted.filter((s) => s.jobName.startsWith("eval-")).length, 8);
  });

  it("takes cached baseline pairs with their seeds, runs the candidate under them, and adds fresh pairs", async () => {
    const climb = tempDir("paired-cache-");
    const contract = { repeats: 2, max_repeats: 2, baseline: "cached", min_effect: 0 };
    const first = runRecordFixture({ runTag: "r1" }, contract);
    const c1 = new FakeCompute();
    finishing(c1, (m) => m.startsWith("baseline") ? 10 : 12);
    await runPhase(newRun(first, climb, "r1"), deps(c1));
    const entry = JSON.parse(readFileSync(join(climb, "baselines", `toy@${first.baseSha}.json`), "utf8"));
    const seeds = [pairSeed(first.seed, 1), pairSeed(first.seed, 2)];
    assert.deepEqual(entry.pairs, seeds.map((seed) => ({ seed, value: 10 })));
    assert.equal(entry.value, 10);
    assert.equal(entry.seed, seeds[0]);
    // a second candidate on the same base, with another run seed: the cache's seeds win
    const second = runRecordFixture({ runTag: "r2", seed: 4242, candidateSha: "c".repeat(40) }, contract);
    const c2 = new FakeCompute();
    finishing(c2, () => 12);
    const dir = newRun(second, climb, "r2");
    await runPhase(dir, deps(c2));
    const evals = c2.submitted.filter((s) => s.jobName.startsWith("eval-"));
    assert.deepEqual(evals.map(measureOf), ["candidate", "candidate#2"]);
    assert.deepEqual(evals.map(seedOf), seeds);
    const d = JSON.parse(readFileSync(dir.decision, "utf8"));
    assert.equal(d.baseline_source, "cached");
    assert.deepEqual(d.seeds, seeds);
    // the verdict says where its baseline came from (this fake's evals record no provenance: unknown)
    assert.ok(
      d.reasons.some((r: string) => r.startsWith("The baseline comes from the cache: measured at an unknown time")),
    );
  });

  it("keeps the reference's cache entry, key for key, for a single pair", async () => {
    const climb = tempDir("single-cache-");
    const rec = runRecordFixture({}, { baseline: "cached" });
    const compute = new FakeCompute();
    finishing(compute, (m) => m === "baseline" ? 10 : 12);
    await runPhase(newRun(rec, climb), deps(compute));
    const entry = JSON.parse(readFileSync(join(climb, "baselines", `toy@${rec.baseSha}.json`), "utf8"));
    assert.deepEqual(Object.keys(entry), REFERENCE_CACHE_KEYS);
    assert.equal(entry.seed, rec.seed);
  });
});

describe("runPhase() of a calibration (A/A) run", () => {
  it("measures the base against itself in every pair at once, then writes the noise report", async () => {
    const rec = runRecordFixture({ kind: "calibrate", candidateSha: "a".repeat(40) }, {
      repeats: 5,
      max_repeats: 5,
    });
    const compute = new FakeCompute();
    const noise: Record<string, number> = { "": 0.5, "#2": -0.25, "#3": 0, "#4": 0.75, "#5": -0.5 };
    finishing(compute, (m) => m.startsWith("baseline") ? 10 : 10 + noise[m.slice("candidate".length)]!);
    const dir = newRun(rec);
    const outcome = await runPhase(dir, deps(compute));
    assert.equal(outcome.kind, "calibrated");
    const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
    assert.equal(evals.length, 10);
    assert.ok(evals.every((s) => withDefaults(s).script.includes(`-${"a".repeat(40)}-`)), "both sides on the base");
    const c = JSON.parse(readFileSync(dir.calibration, "utf8"));
    assert.deepEqual(c.differences, [0.5, -0.25, 0, 0.75, -0.5]);
    assert.equal(c.n, 5);
    assert.ok(Math.abs(c.mean - 0.1) < 1e-12, String(c.mean));
    assert.ok(Math.abs(c.sd - 0.518411033833193) < 1e-12, String(c.sd)); // python3 statistics.stdev
    assert.deepEqual(c.detectable.map((d: { pairs: number }) => d.pairs), [3, 5, 10, 20, 30]);
    assert.equal(c.biased, false);
    assert.ok(c.suggestion.max_repeats >= c.suggestion.repeats);
    // a resume of a calibrated run answers from the file, asking nothing
    const calls = compute.calls.length;
    const again = await runPhase(dir, deps(compute));
    assert.equal(again.kind === "calibrated" && again.fresh, false);
    assert.equal(compute.calls.length, calls);
  });
});
