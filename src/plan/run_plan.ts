// Tested by tests/evaluation/calibration_test.ts
import type { Measure } from "../measure/measure.ts";
import { BASE_ARM, benchmarkName, guardName, parseMeasureName, splitPairName } from "../measure/measure_name.ts";
import { planPairs } from "../measure/plan.ts";
import { pairSeeds } from "../stats/pair_seed.ts";
import type { CachedBaseline } from "./baseline_source.ts";
import type { PairedValues } from "../verdict/decide.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { type Design, designOf } from "../stats/sequential.ts";
import {
  type CrashedArms,
  decideRound,
  planRound,
  type RoundDecisionWithCrashes,
  type RoundNext,
} from "../verdict/round.ts";

/**
 * The run's measures for pairs 1 … `seeds.length`, rebuilt from its record
 * alone: the same record gives byte-identical measures (and so slots and job
 * names) before and after a park. Every sibling of a pair gets the pair's
 * seed through its own variable. One seed (the run's) is the reference's plan.
 */
function planFromRecord(
  r: RunRecord,
  seeds: readonly number[] = [r.seed],
  armsOf?: (pair: number) => readonly number[],
): Measure[] {
  const c = r.contract;
  return planPairs(
    {
      command: c.command,
      metric: c.metric,
      summary: c.summary,
      baseSha: r.baseSha,
      candidateSha: r.candidateSha,
      seedEnv: c.seedEnv,
      gpus: c.gpus,
      siblings: c.siblings.map((s) => ({
        name: s.name,
        command: s.command,
        metric: s.metric,
        summary: s.summary,
        seedEnv: s.seedEnv,
        seed: r.seed,
        gpus: s.gpus,
      })),
      ...(r.candidates.length > 1
        ? { candidates: r.candidates.map((cand, i) => ({ arm: i + 1, sha: cand.sha })) }
        : {}),
    },
    seeds,
    armsOf,
  );
}

/**
 * The seeds of pairs 1 … `pairs`: a pair the cache holds a baseline for
 * keeps that baseline's seed (its candidate must run under it to stay
 * paired); every other pair has `pairSeed(run seed, i)` — pair 1 the run's
 * own seed.
 */
function planSeeds(r: RunRecord, cache: CachedBaseline, pairs: number): number[] {
  const cached = cache.kind === "pairs" ? cache.pairs : [];
  const derived = pairSeeds(r.seed, pairs);
  return derived.map((seed, i) => cached[i]?.seed ?? seed);
}

/** What one look of a pass works on. */
export interface PassPlan {
  /** Every measure of pairs 1 … n, pair by pair, in plan order. */
  readonly plan: readonly Measure[];
  /** Each pair's seed. */
  readonly seeds: readonly number[];
  /** The values the baseline cache gives, by measure name (`baseline`, `baseline#2`, …). */
  readonly cached: Readonly<Record<string, number>>;
  /** The measures this run measures itself: the plan, less what the cache gives. */
  readonly toMeasure: readonly Measure[];
}

/**
 * The plan of pairs 1 … `pairs` (with a round's candidates `armsOf(pair)`),
 * and which of it comes from the baseline cache.
 */
function passPlan(
  r: RunRecord,
  cache: CachedBaseline,
  pairs: number,
  armsOf?: (pair: number) => readonly number[],
): PassPlan {
  const seeds = planSeeds(r, cache, pairs);
  const plan = planFromRecord(r, seeds, armsOf);
  const cached: Record<string, number> = {};
  if (cache.kind === "value") cached["baseline"] = cache.value;
  if (cache.kind === "pairs") {
    cache.pairs.slice(0, pairs).forEach((p, i) => (cached[benchmarkName(BASE_ARM, i + 1)] = p.value));
  }
  return { plan, seeds, cached, toMeasure: plan.filter((m) => !Object.hasOwn(cached, m.name)) };
}

/**
 * Flat values by measure name (`baseline#2`) → the series per pair-1 name
 * that `decideLook` reads. A measure without a value (a crashed arm's, from
 * its crash on) ends its series there.
 */
export function pairedValues(
  plan: readonly Measure[],
  values: Readonly<Record<string, number>>,
  guards: readonly { readonly metric: string }[] = [],
): PairedValues {
  const series: Record<string, number[]> = {};
  for (const m of plan) {
    const { name } = splitPairName(m.name);
    const xs = series[name] ??= [];
    if (Object.hasOwn(values, m.name)) xs.push(values[m.name]!);
    // a benchmark measure's guards, from the same result
    const ref = guards.length === 0 ? null : parseMeasureName(m.name);
    if (ref === null || ref.sibling !== null) continue;
    for (const g of guards) {
      const key = guardName(g.metric, ref.arm, ref.pair);
      const gs = series[guardName(g.metric, ref.arm)] ??= [];
      if (Object.hasOwn(values, key)) gs.push(values[key]!);
    }
  }
  return series;
}

/**
 * What a run measures, derived from its record in this one place: the
 * design (its looks), the baseline the cache gives, and each look's plan.
 * Every caller that needs a look's measures, the first look's, or every
 * measure the design may ever run asks a `RunPlan`.
 */
export interface RunPlan {
  readonly record: RunRecord;
  readonly design: Design;
  readonly cache: CachedBaseline;
  /** The plan of the look at `pairs` pairs (a pair count on the design's schedule). */
  look(pairs: number): PassPlan;
  /** The first look's plan: what a first pass dispatches (pair 1 alone is the reference's plan). */
  readonly first: PassPlan;
  /**
   * Every measure the design may run: the plan of max_repeats pairs (a round:
   * every candidate on repeats + max_repeats pairs, `roundCeiling`).
   */
  readonly all: PassPlan;
}

/** The run's plan; `cache` is what `cachedBaseline()` gives (none by default: a dry run, an input check). */
export function runPlan(r: RunRecord, cache: CachedBaseline = { kind: "none" }): RunPlan {
  const design = designOf(r.contract);
  // each look's plan is built once: the results' reading, the decision's check and the walk of the looks all ask
  // for the same ones, and building one hashes every measure's identity
  const looks = new Map<number, PassPlan>();
  const look = (pairs: number) => {
    let p = looks.get(pairs);
    if (p === undefined) looks.set(pairs, p = passPlan(r, cache, pairs));
    return p;
  };
  let all: PassPlan | undefined;
  return {
    record: r,
    design,
    cache,
    look,
    get first() {
      return look(design.looks[0]!.n);
    },
    get all() {
      return all ??= r.candidates.length > 1 ? roundCeiling(r, cache) : look(r.contract.maxRepeats);
    },
  };
}

/** One batch of a round: `pairs` pairs from `firstPair`, measuring the baseline and the candidates `arms`. */
export interface RoundBatch {
  readonly firstPair: number;
  readonly pairs: number;
  readonly arms: readonly number[];
}

/**
 * The plan of a round's batches so far (verdict/round.ts says each next one):
 * pairs 1 … the last batch's end, each with the baseline and the candidates
 * of the batch it belongs to, on the pair's seed.
 */
function roundPlan(r: RunRecord, cache: CachedBaseline, batches: readonly RoundBatch[]): PassPlan {
  const last = batches.at(-1);
  const pairs = last === undefined ? 0 : last.firstPair + last.pairs - 1;
  const armsOf = (pair: number) => batches.find((b) => pair >= b.firstPair && pair < b.firstPair + b.pairs)?.arms ?? [];
  return passPlan(r, cache, pairs, armsOf);
}

/**
 * Every measure a round may ever run: every candidate on every pair up to
 * repeats + max_repeats (a round's screen pairs come before its confirmation's
 * design) — what the run's job names are drawn from.
 */
function roundCeiling(r: RunRecord, cache: CachedBaseline): PassPlan {
  return passPlan(r, cache, r.contract.repeats + r.contract.maxRepeats);
}

/**
 * A round stepped as its decisions ask (verdict/round.ts): `plan` is the plan
 * of its batches so far — the first is `planRound`'s — and `advance` decides
 * the look those batches reach from their values; when the decision asks for
 * more, its batch is added and `plan` grows by it. The pass, `show` and the
 * decision check all step a round this one way.
 */
export class RoundSteps {
  readonly #r: RunRecord;
  readonly #cache: CachedBaseline;
  readonly #batches: RoundBatch[] = [];

  constructor(r: RunRecord, cache: CachedBaseline) {
    this.#r = r;
    this.#cache = cache;
    const first = planRound(r.contract, r.candidates.length);
    if (first.kind !== "more") throw new Error("A round's plan asked for no pairs");
    this.#batches.push(batchOf(first));
  }

  /** The plan of the batches so far. */
  get plan(): PassPlan {
    return roundPlan(this.#r, this.#cache, this.#batches);
  }

  /**
   * The round's decision at the batches so far, from every value of `plan`
   * (a crashed arm's up to its crash: `crashed`); a "more" adds its batch.
   */
  advance(values: Readonly<Record<string, number>>, crashed: CrashedArms = new Map()): RoundDecisionWithCrashes {
    const series = pairedValues(this.plan.plan, values, this.#r.contract.guards);
    const d = decideRound(this.#r.contract, this.#r.candidates.length, series, {
      crashed,
    });
    if (d.next.kind === "more") this.#batches.push(batchOf(d.next));
    return d;
  }
}

function batchOf(next: Extract<RoundNext, { kind: "more" }>): RoundBatch {
  return { firstPair: next.firstPair, pairs: next.pairs, arms: next.arms };
}

/**
 * The guards' values a benchmark measure's result gives (`metrics`: its
 * result line's other numbers), under the guards' names (`guard-size-base`,
 * `guard-size-cand#2`, …: measure/measure_name.ts `guardName`) — what
 * `decideLook` judges beside the metric, from the same job. A sibling's
 * measure gives none; a guard metric the result lacks is left out (the
 * measure then cannot be judged: see `missingGuards`).
 */
export function guardValues(
  contract: { readonly guards: readonly { readonly metric: string }[] },
  measure: string,
  metrics: Readonly<Record<string, number>>,
): Record<string, number> {
  const ref = parseMeasureName(measure);
  if (ref === null || ref.sibling !== null) return {};
  const out: Record<string, number> = {};
  for (const g of contract.guards) {
    const v = metrics[g.metric];
    if (v !== undefined) out[guardName(g.metric, ref.arm, ref.pair)] = v;
  }
  return out;
}

/** The guard metrics a benchmark measure's result lacks (none for a sibling's measure). */
export function missingGuards(
  contract: { readonly guards: readonly { readonly metric: string }[] },
  measure: string,
  metrics: Readonly<Record<string, number>>,
): string[] {
  const ref = parseMeasureName(measure);
  if (ref === null || ref.sibling !== null) return [];
  return contract.guards.map((g) => g.metric).filter((m) => metrics[m] === undefined);
}
