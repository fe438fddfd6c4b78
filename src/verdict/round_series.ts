import type { Contract, Scale } from "../contract/contract.ts";
import {
  BASE_ARM,
  benchmarkName,
  differenceName,
  guardName,
  pairMeasureName,
  parseGuardName,
  parseMeasureName,
  siblingName,
} from "../measure/measure_name.ts";
import type { PairedInterval } from "../stats/paired.ts";
import type { PairedValues } from "./decide.ts";
import { type ComparedSeries, finiteInterval } from "./finite_interval.ts";

/**
 * A round's measured values read into series, per arm and benchmark, pair 1
 * first: the baseline (arm 0) on every pair, candidate k on the pairs it was
 * measured on — always the first ones, since a candidate dropped at a look is
 * measured no more. The procedures (round_screen_confirm.ts,
 * round_simultaneous.ts) check each length against what the round asked for.
 */

/** One arm's values: the benchmark's, each contract sibling's, then each guard's, pair 1 first. */
export interface ArmSeries {
  readonly arm: number;
  readonly bench: readonly number[];
  /** In the order of `watchedOf`: the contract's siblings, then its guards. */
  readonly siblings: readonly (readonly number[])[];
}

/** A quantity that can block or reject a candidate: a sibling, or a guard read from the benchmark's result. */
export interface Watched {
  readonly kind: "sibling" | "guard";
  /** The sibling's name, or the guard's metric. */
  readonly name: string;
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  readonly tolerance: number;
  readonly toleranceScale: Scale;
  /** The measure name of `arm`'s series in pair `pair`. */
  nameOf(arm: number, pair?: number): string;
}

/** The contract's siblings, then its guards: the order of `ArmSeries.siblings`. */
export function watchedOf(contract: Contract): Watched[] {
  return [
    ...contract.siblings.map((s): Watched => ({
      kind: "sibling",
      name: s.name,
      metric: s.metric,
      direction: s.direction,
      tolerance: s.tolerance,
      toleranceScale: s.toleranceScale,
      nameOf: (arm, pair = 1) => siblingName(s.name, arm, pair),
    })),
    ...contract.guards.map((g): Watched => ({
      kind: "guard",
      name: g.metric,
      metric: g.metric,
      direction: g.direction,
      tolerance: g.tolerance,
      toleranceScale: g.toleranceScale,
      nameOf: (arm, pair = 1) => guardName(g.metric, arm, pair),
    })),
  ];
}

/** Every arm's values; `arms[0]` is the baseline, `arms[k]` candidate k. */
export interface RoundSeries {
  readonly arms: readonly ArmSeries[];
}

function seriesOf(values: PairedValues, name: string): number[] {
  const v = values[name];
  const list = v === undefined ? [] : typeof v === "number" ? [v] : [...v];
  list.forEach((x, i) => {
    if (!Number.isFinite(x)) {
      const at = JSON.stringify(pairMeasureName(name, i + 1));
      throw new TypeError(`Cannot decide: measure ${at} has no finite value (got ${String(x)})`);
    }
  });
  return list;
}

/**
 * Reads the values of a round of `k` candidates by measure name (`baseline`,
 * `candidate`, `candidate-2`, `sib-<s>-base`, `sib-<s>-cand-2`, each a number
 * or a list over the pairs); a `TypeError` for a non-finite value, a name the
 * round does not measure, or a sibling series whose length differs from its
 * arm's benchmark series (caller bugs).
 */
export function readRoundSeries(contract: Contract, k: number, values: PairedValues): RoundSeries {
  for (const name of Object.keys(values)) {
    const ref = parseMeasureName(name);
    const guard = parseGuardName(name);
    const known = ref !== null
      ? ref.pair === 1 && ref.arm <= k &&
        (ref.sibling === null || contract.siblings.some((s) => s.name === ref.sibling))
      : guard !== null && guard.pair === 1 && guard.arm <= k && contract.guards.some((g) => g.metric === guard.metric);
    if (!known) throw new TypeError(`Cannot decide: measure "${name}" is not one of a round of ${k} candidates`);
  }
  const arms: ArmSeries[] = [];
  for (let arm = BASE_ARM; arm <= k; arm++) {
    const bench = seriesOf(values, benchmarkName(arm));
    const siblings = watchedOf(contract).map((w) => {
      const xs = seriesOf(values, w.nameOf(arm));
      if (xs.length !== bench.length) {
        throw new TypeError(
          `Cannot decide: measure "${w.nameOf(arm)}" has ${xs.length} values, ` +
            `"${benchmarkName(arm)}" has ${bench.length}`,
        );
      }
      return xs;
    });
    arms.push({ arm, bench, siblings });
  }
  return { arms };
}

/**
 * The benchmark (sibling null) or a sibling or guard (its index in
 * `watchedOf`) of candidate `arm` against the baseline over pairs
 * from+1..to, as the interval code reads it.
 */
export function comparedSeries(
  contract: Contract,
  series: RoundSeries,
  arm: number,
  sibling: number | null,
  from: number,
  to: number,
): ComparedSeries {
  const base = series.arms[BASE_ARM]!;
  const cand = series.arms[arm]!;
  const sib = sibling === null ? null : watchedOf(contract)[sibling]!;
  return {
    metric: sib === null ? contract.metric : sib.metric,
    direction: sib === null ? contract.direction : sib.direction,
    baseName: sib === null ? benchmarkName(BASE_ARM) : sib.nameOf(BASE_ARM),
    candName: sib === null ? benchmarkName(arm) : sib.nameOf(arm),
    base: (sib === null ? base.bench : base.siblings[sibling!]!).slice(from, to),
    cand: (sib === null ? cand.bench : cand.siblings[sibling!]!).slice(from, to),
  };
}

/**
 * The interval of a compared series at `level`, an `EvalError` naming the
 * round's measures when it overflows; `from` is the pairs before the series'
 * first (its pair 1 is the round's pair from+1).
 */
export function roundInterval(s: ComparedSeries, level: number, from: number): PairedInterval {
  return finiteInterval(s, level, (name, pair) => pairMeasureName(name, from + pair));
}

/** Every measure's value and every difference (candidate − baseline), keyed as decision.json keys them. */
export function valuesAndDeltas(
  contract: Contract,
  series: RoundSeries,
): { values: Record<string, number>; deltas: Record<string, number> } {
  const values: Record<string, number> = {};
  const deltas: Record<string, number> = {};
  const base = series.arms[BASE_ARM]!;
  for (const a of series.arms) {
    a.bench.forEach((x, p) => {
      values[benchmarkName(a.arm, p + 1)] = x;
      if (a.arm !== BASE_ARM) deltas[differenceName(null, a.arm, p + 1)] = x - base.bench[p]!;
    });
    watchedOf(contract).forEach((w, i) =>
      a.siblings[i]!.forEach((x, p) => {
        values[w.nameOf(a.arm, p + 1)] = x;
        if (a.arm === BASE_ARM) return;
        const key = w.kind === "sibling" ? differenceName(w.name, a.arm, p + 1) : w.nameOf(a.arm, p + 1);
        deltas[key] = x - base.siblings[i]![p]!;
      })
    );
  }
  return { values, deltas };
}
