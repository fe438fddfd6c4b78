/**
 * Real round run dirs (K ≥ 2 candidates against one baseline) with random
 * but reproducible results, for the tests that read what a person reads of
 * a round: a Slurm-kind run on a `FakeCompute` whose eval jobs finish inside
 * `submit` with a value drawn from the case's seed, driven through
 * `runPhase` until decided (or, with `passes`, stopped open after that many
 * passes), so decision.json, the eval results and every surface are the
 * real thing.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { parseMeasureName } from "../../src/measure/measure_name.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "./fake_compute.ts";
import { runRecordFixture } from "./run_fixture.ts";
import { normal, seededRandom } from "./seeded_random.ts";

/** One random round to decide. */
export interface RoundCase {
  readonly seed: number;
  /** K, the candidates. */
  readonly k: number;
  readonly direction: "maximize" | "minimize";
  readonly repeats: number;
  readonly maxRepeats: number;
  readonly minEffect: number;
  /** A sibling benchmark `lat` (minimize, tolerance 0.5), or none. */
  readonly sibling: boolean;
  /** Each candidate's true improvement, arm 1 first, in noise sds. */
  readonly effects: readonly number[];
  /** Every measure's value by name, for every pair the round may run. */
  readonly values: Readonly<Record<string, number>>;
}

/** A candidate's sha: arm 1 `b…`, arm 2 `c…`, …. */
export function armSha(arm: number): string {
  return "bcdef0123"[arm - 1]!.repeat(40);
}

/**
 * The round of `seed`: 2 to 4 candidates, either direction, repeats 2 to 4
 * and up to three times as many pairs per confirmation, with or without a
 * sibling (one candidate may regress it), each candidate's true
 * improvement from −3 to +4 noise sds, on a scale from 0.001 to 1000.
 */
export function roundCase(seed: number, over: Partial<Omit<RoundCase, "values">> = {}): RoundCase {
  const random = seededRandom(seed);
  const k = over.k ?? 2 + Math.floor(random() * 3);
  const direction = over.direction ?? (random() < 0.5 ? "maximize" : "minimize");
  const repeats = over.repeats ?? 2 + Math.floor(random() * 3);
  const maxRepeats = over.maxRepeats ?? repeats * (1 + Math.floor(random() * 3));
  const scale = 10 ** (-3 + random() * 6);
  const sd = scale * (0.002 + random() * 0.05);
  const minEffect = over.minEffect ?? Number((sd * random()).toPrecision(2));
  const sibling = over.sibling ?? random() < 0.5;
  const pick = [-3, -1, 0, 0.3, 1.5, 3, 4];
  const effects = over.effects ?? Array.from({ length: k }, () => pick[Math.floor(random() * pick.length)]!);
  const regressing = sibling && random() < 0.3 ? 1 + Math.floor(random() * k) : 0;
  const sign = direction === "maximize" ? 1 : -1;
  const values: Record<string, number> = {};
  for (let pair = 1; pair <= repeats + maxRepeats; pair++) {
    const suffix = pair === 1 ? "" : `#${pair}`;
    const base = scale + sd * 5 * normal(random) + sd * normal(random);
    const sib = 50 + normal(random);
    values[`baseline${suffix}`] = base;
    values[`sib-lat-base${suffix}`] = sib;
    for (let arm = 1; arm <= k; arm++) {
      const word = arm === 1 ? "" : `-${arm}`;
      values[`candidate${word}${suffix}`] = base + sign * effects[arm - 1]! * sd + sd * normal(random);
      values[`sib-lat-cand${word}${suffix}`] = sib + 0.2 * normal(random) + (arm === regressing ? 3 : 0);
    }
  }
  return { seed, k, direction, repeats, maxRepeats, minEffect, sibling, effects, values };
}

/** The measure name an eval job runs, from its script's folder `eval-<name>-<tree sha>-<hex>`. */
function measureOf(script: string): string {
  return basename(dirname(script)).replace(/^eval-/, "").replace(/-[0-9a-f]{40}-[0-9a-f]+$/, "");
}

/** Where and how `roundRun` makes its run. */
export interface RoundRunOptions {
  /** The run dir's name and run tag; default "r1". */
  readonly tag?: string;
  /** default 2026-01-02T03:04:05.000Z */
  readonly createdAt?: string;
  /** Stop after this many passes, decided or not (default: until decided). */
  readonly passes?: number;
  /** Measures whose jobs never finish (they stay queued): the round stops at their batch. */
  readonly hold?: (measure: string) => boolean;
}

/**
 * Makes the case's round in `<climb>/<tag>` (a Slurm-kind run of benchmark
 * `toy`, candidates `c1` … `cK`) and drives it through `runPhase`; the run
 * dir and the compute its jobs ran on.
 */
export async function roundRun(
  c: RoundCase,
  climb: string,
  opts: RoundRunOptions = {},
): Promise<{ dir: RunDir; compute: FakeCompute }> {
  const tag = opts.tag ?? "r1";
  const createdAt = opts.createdAt ?? "2026-01-02T03:04:05.000Z";
  const dir = new RunDir(join(climb, tag));
  mkdirSync(dir.path, { recursive: true });
  const contract = {
    metric: "score",
    direction: c.direction,
    min_effect: c.minEffect,
    repeats: c.repeats,
    max_repeats: c.maxRepeats,
    siblings: c.sibling
      ? [{ name: "lat", command: "sh lat.sh", metric: "ms", direction: "minimize", tolerance: 0.5 }]
      : [],
  };
  const candidates = Array.from({ length: c.k }, (_, i) => ({ ref: `c${i + 1}`, sha: armSha(i + 1) }));
  const record = runRecordFixture(
    { runTag: tag, createdAt, candidateRef: "c1", candidateSha: armSha(1), candidates, baseRef: "main" },
    contract,
  );
  writeRunRecord(dir, record);
  const compute = new FakeCompute();
  compute.onSubmit = (spec, id) => {
    if (!spec.jobName.startsWith("eval-")) return;
    const name = measureOf(withDefaults(spec).script);
    const ref = parseMeasureName(name);
    const value = c.values[name];
    assert.ok(value !== undefined && ref !== null, `seed ${c.seed}: no value for ${name}`);
    if (opts.hold?.(name)) {
      compute.live!.set(spec.jobName, [id]);
      return;
    }
    finishEvalJob(spec, { [ref.sibling === null ? "score" : "ms"]: value });
  };
  const deps = { compute, self: ["/bin/outerloop"], now: () => Date.parse(createdAt) + 60_000, env: {} };
  for (let pass = 0; pass < (opts.passes ?? 30); pass++) {
    const outcome = await runPhase(dir, deps);
    if (outcome.kind === "decided") return { dir, compute };
  }
  if (opts.passes !== undefined) return { dir, compute };
  throw new Error(`seed ${c.seed}: the round was not decided after 30 passes`);
}
