/**
 * Real run dirs with random but reproducible results, for the tests that
 * read what a person reads: a Slurm-kind run on a `FakeCompute` whose eval
 * jobs finish inside `submit` with a value drawn from the case's seed, driven
 * through `runPhase` until it is decided — sequential designs included — so
 * `decision.json`, the eval results and every surface are the real thing.
 */
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import assert from "node:assert/strict";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { parseMeasureName } from "../../src/measure/measure_name.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "./fake_compute.ts";
import { runRecordFixture } from "./run_fixture.ts";
import { normal, seededRandom } from "./seeded_random.ts";

/** One random decision to make: the contract and how the measured values are drawn. */
export interface SeededCase {
  readonly seed: number;
  readonly direction: "maximize" | "minimize";
  readonly repeats: number;
  readonly maxRepeats: number;
  readonly minEffect: number;
  /** A sibling benchmark `lat`, or none. */
  readonly sibling: boolean;
  /** The sibling's direction. */
  readonly siblingDirection: "maximize" | "minimize";
  /** Every measure's value by name, for every pair the design may run. */
  readonly values: Readonly<Record<string, number>>;
  /**
   * The samples a measure reports instead of its value (the metric as an
   * array, summarized by the median: its median must be the value), by name.
   */
  readonly samples?: Readonly<Record<string, readonly number[]>>;
  /** The contract's calibrated noise (issue 31), when the case gives one. */
  readonly noise?: { readonly sd: number; readonly pairs: number };
}

/**
 * The case of `seed`: either direction, a single pair or a (sequential)
 * repeated design of up to 12 pairs, with or without a sibling, on a scale
 * from 0.001 to 1000, with a true improvement from −3 to +3 noise sds.
 */
export function seededCase(seed: number): SeededCase {
  const random = seededRandom(seed);
  const direction = random() < 0.5 ? "maximize" : "minimize";
  const single = random() < 0.3;
  const repeats = single ? 1 : 2 + Math.floor(random() * 3);
  const maxRepeats = single ? 1 : repeats * (1 + Math.floor(random() * 3));
  const scale = 10 ** (-3 + random() * 6);
  const sd = scale * (0.002 + random() * 0.05);
  const effect = sd * (-3 + random() * 6);
  const minEffect = Number((sd * random()).toPrecision(2));
  const sibling = random() < 0.5;
  const sign = direction === "maximize" ? 1 : -1;
  const values: Record<string, number> = {};
  for (let pair = 1; pair <= maxRepeats; pair++) {
    const suffix = pair === 1 ? "" : `#${pair}`;
    const base = scale + sd * 5 * normal(random) + sd * normal(random);
    values[`baseline${suffix}`] = base;
    values[`candidate${suffix}`] = base + sign * effect + sd * normal(random);
    const sib = 50 + normal(random);
    values[`sib-lat-base${suffix}`] = sib;
    values[`sib-lat-cand${suffix}`] = sib + 0.2 * normal(random);
  }
  return { seed, direction, repeats, maxRepeats, minEffect, sibling, siblingDirection: "minimize", values };
}

/**
 * The same case measured on the negated metric with the direction flipped:
 * the same improvement pair by pair, the difference of the opposite sign.
 */
export function mirroredCase(c: SeededCase): SeededCase {
  const values = Object.fromEntries(Object.entries(c.values).map(([k, v]) => [k, -v]));
  const flip = (d: SeededCase["direction"]) => (d === "maximize" ? "minimize" : "maximize");
  return { ...c, direction: flip(c.direction), siblingDirection: flip(c.siblingDirection), values };
}

/** The measure name an eval job runs, from its script's folder `eval-<name>-<tree sha>-<hex>`. */
function measureOf(script: string): string {
  return basename(dirname(script)).replace(/^eval-/, "").replace(/-[0-9a-f]{40}-[0-9a-f]+$/, "");
}

/** Where and how `seededRun` makes its run. */
export interface SeededRunOptions {
  /** The run dir's name and run tag; default "r1". */
  readonly tag?: string;
  /** default 2026-01-02T03:04:05.000Z */
  readonly createdAt?: string;
  /** The benchmark's metric; default "score". */
  readonly metric?: string;
  /** The contract's unit; default none. */
  readonly unit?: string;
}

/**
 * Makes the case's run in `<climb>/<tag>` (a Slurm-kind run of benchmark
 * `toy`) and drives it through `runPhase` until it is decided; the run dir
 * and the compute its jobs ran on.
 */
export async function seededRun(
  c: SeededCase,
  climb: string,
  opts: SeededRunOptions = {},
): Promise<{ dir: RunDir; compute: FakeCompute }> {
  const tag = opts.tag ?? "r1";
  const createdAt = opts.createdAt ?? "2026-01-02T03:04:05.000Z";
  const metric = opts.metric ?? "score";
  const dir = new RunDir(join(climb, tag));
  mkdirSync(dir.path, { recursive: true });
  const contract = {
    metric,
    ...(opts.unit === undefined ? {} : { unit: opts.unit }),
    direction: c.direction,
    min_effect: c.minEffect,
    repeats: c.repeats,
    max_repeats: c.maxRepeats,
    siblings: c.sibling
      ? [{ name: "lat", command: "sh lat.sh", metric: "ms", direction: c.siblingDirection, tolerance: 0.5 }]
      : [],
    ...(c.noise === undefined ? {} : { noise: c.noise }),
  };
  writeRunRecord(dir, runRecordFixture({ runTag: tag, createdAt }, contract));
  const compute = new FakeCompute();
  compute.onSubmit = (spec) => {
    if (!spec.jobName.startsWith("eval-")) return;
    const name = measureOf(withDefaults(spec).script);
    const value = c.samples?.[name] ?? c.values[name];
    assert.ok(value !== undefined && parseMeasureName(name) !== null, `seed ${c.seed}: no value for ${name}`);
    finishEvalJob(spec, { [parseMeasureName(name)!.sibling === null ? metric : "ms"]: value });
  };
  const deps = { compute, self: ["/bin/outerloop"], now: () => Date.parse(createdAt) + 60_000, env: {} };
  for (let pass = 0; pass < 20; pass++) {
    const outcome = await runPhase(dir, deps);
    if (outcome.kind === "decided") return { dir, compute };
  }
  throw new Error(`seed ${c.seed}: the run was not decided after 20 passes`);
}

/** A case of fixed `values` (by measure name), for a test that needs particular numbers. */
export function fixedCase(
  direction: SeededCase["direction"],
  values: Readonly<Record<string, number>>,
  over: Partial<SeededCase> = {},
): SeededCase {
  const pairs = Object.keys(values).filter((k) => /^baseline(#\d+)?$/.test(k)).length;
  return {
    seed: 0,
    direction,
    repeats: pairs,
    maxRepeats: pairs,
    minEffect: 0.3,
    sibling: false,
    siblingDirection: "minimize",
    values,
    ...over,
  };
}

/** A minimize run of 10 pairs whose candidate is 0.75 faster, give or take: accepted at min_effect 0.3. */
export function timingCase(): SeededCase {
  const values: Record<string, number> = {};
  const noise = [0.02, -0.05, 0.08, -0.01, 0.04, -0.07, 0.03, 0.06, -0.04, 0.01];
  for (let i = 1; i <= 10; i++) {
    const suffix = i === 1 ? "" : `#${i}`;
    const base = 13 + 0.1 * Math.sin(i) + 1e-11 * i; // digits no reader needs
    values[`baseline${suffix}`] = base;
    values[`candidate${suffix}`] = base - 0.75 + noise[i - 1]!;
  }
  return fixedCase("minimize", values, { repeats: 10, maxRepeats: 10 });
}

/**
 * Samples whose median is exactly `value` (7 of them, around it by `spread`:
 * three below, three above, one far above — a stalled sample the median
 * shrugs off); `random` varies their offsets.
 */
export function samplesAround(value: number, spread: number, random: () => number = () => 0.5): number[] {
  const below = [1, 2, 3].map((k) => value - spread * (k * 0.3 + random() * 0.2));
  const above = [1, 2].map((k) => value + spread * (k * 0.3 + random() * 0.2));
  return [...below, value, ...above, value + spread * (4 + random())];
}

/**
 * The case of `seed` made an outlier case: a fixed design of 6 to 12 pairs
 * (the screen sets pairs aside from 6 on) in which one pair, chosen by the
 * seed, lies far off the others — its candidate 200 noise sds worse, as a
 * stalled job makes it — and, for every other seed, every benchmark measure
 * reporting samples (the metric an array) whose median is its value.
 */
export function outlierCase(seed: number): SeededCase {
  const c = seededCase(seed);
  const random = seededRandom(seed * 7919 + 1);
  const n = 6 + Math.floor(random() * 7);
  const far = 1 + Math.floor(random() * n);
  const values: Record<string, number> = { ...c.values };
  const sign = c.direction === "maximize" ? 1 : -1;
  for (let pair = 1; pair <= n; pair++) {
    const suffix = pair === 1 ? "" : `#${pair}`;
    if (values[`baseline${suffix}`] !== undefined) continue;
    // pairs past the case's own: drawn like them (the same scale and noise, around the same values)
    const base = values["baseline"]! + (random() - 0.5) * Math.abs(values["baseline"]!) * 0.01;
    values[`baseline${suffix}`] = base;
    values[`candidate${suffix}`] = base + (values["candidate"]! - values["baseline"]!) * (0.9 + random() * 0.2);
    values[`sib-lat-base${suffix}`] = 50 + random();
    values[`sib-lat-cand${suffix}`] = values[`sib-lat-base${suffix}`]! + 0.2 * (random() - 0.5);
  }
  const diffs = Array.from({ length: n }, (_, i) => {
    const suffix = i === 0 ? "" : `#${i + 1}`;
    return values[`candidate${suffix}`]! - values[`baseline${suffix}`]!;
  });
  const spread = Math.max(...diffs) - Math.min(...diffs) || Math.abs(values["baseline"]!) * 0.01;
  const farKey = far === 1 ? "candidate" : `candidate#${far}`;
  values[farKey] = values[farKey]! - sign * 200 * spread;
  const samples: Record<string, number[]> = {};
  if (seed % 2 === 0) {
    for (const [k, v] of Object.entries(values)) {
      if (/^(baseline|candidate)(#\d+)?$/.test(k)) samples[k] = samplesAround(v, spread, random);
    }
  }
  // odd seeds give the contract a calibrated noise (the pairs' own spread): the calibrated fence sets the far pair
  // aside, and every surface says so in its words
  const noise = seed % 2 === 1 ? { noise: { sd: spread, pairs: 20 } } : {};
  return { ...c, seed, repeats: n, maxRepeats: n, values, samples, ...noise };
}

/**
 * A minimize run of 10 pairs like `timingCase` whose pair 8 stalled (its
 * candidate 5 slower), every benchmark measure reporting 7 samples (their
 * median the value): the screen sets pair 8 aside and the run accepts.
 */
export function stalledTimingCase(): SeededCase {
  const c = timingCase();
  const values: Record<string, number> = { ...c.values, "candidate#8": c.values["candidate#8"]! + 5 };
  const random = seededRandom(15);
  const samples = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, samplesAround(v, 0.05, random)]));
  return { ...c, values, samples };
}

/**
 * A calibration (`outerloop calibrate`: the base against itself) of 3 pairs
 * in `<climb>/<tag>`, driven until calibrated.
 */
export async function calibratedRun(climb: string, tag: string, createdAt: string): Promise<RunDir> {
  const dir = new RunDir(join(climb, tag));
  mkdirSync(dir.path, { recursive: true });
  const record = runRecordFixture({ runTag: tag, createdAt, kind: "calibrate", candidateSha: "a".repeat(40) }, {
    metric: "score",
    repeats: 3,
    max_repeats: 3,
  });
  writeRunRecord(dir, record);
  const compute = new FakeCompute();
  let i = 0;
  compute.onSubmit = (spec) => spec.jobName.startsWith("eval-") && finishEvalJob(spec, { score: 10 + 0.1 * (i++ % 3) });
  const deps = { compute, self: ["/bin/outerloop"], now: () => Date.parse(createdAt) + 60_000, env: {} };
  const outcome = await runPhase(dir, deps);
  assert.equal(outcome.kind, "calibrated");
  return dir;
}

/** An open local run in `<climb>/<tag>` that nothing measures any more: `interrupted`. */
export function interruptedRun(climb: string, tag: string, createdAt: string): RunDir {
  const dir = new RunDir(join(climb, tag));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({ runTag: tag, createdAt, compute: "local" }, { metric: "score" }));
  return dir;
}
