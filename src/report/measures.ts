// Tested by tests/report/model_test.ts
/**
 * Reading measure names: which benchmark a measure belongs to (the climbed
 * one, a sibling or a guard), which side (base or candidate) and which pair. The
 * reports group and order values by this, so `baseline#2` sits beside
 * `candidate#2` and a sibling's values share a chart with their own units.
 */
import {
  BASE_ARM,
  CANDIDATE_ARM,
  differenceName,
  guardName,
  parseGuardName,
  parseMeasureName,
} from "../measure/measure_name.ts";
import { meanOfPairs } from "./set_aside.ts";

/** What a measure name says about the measure. */
export interface MeasureName {
  readonly name: string;
  /** "" for the climbed benchmark, the sibling's name for `sib-<name>-…`, else the name itself. */
  readonly group: string;
  /** Whether the group is a sibling (`sib-<name>-base|cand`). */
  readonly sibling: boolean;
  /** Whether the group is a guard (`guard-<metric>-base|cand`: its group is the metric). */
  readonly guard: boolean;
  readonly side: "base" | "candidate" | "other";
  /** 1 for the first pair, k for a `#k` suffix. */
  readonly pair: number;
}

/** Reads `baseline`, `candidate#3`, `sib-tsp-base`, `sib-tsp-cand#2` (measure_name.ts); an unknown name is its own group. */
export function parseMeasure(name: string): MeasureName {
  const guard = parseGuardName(name);
  if (guard !== null && guard.arm <= CANDIDATE_ARM) {
    const side = guard.arm === BASE_ARM ? "base" : "candidate";
    return { name, group: guard.metric, sibling: false, guard: true, side, pair: guard.pair };
  }
  const ref = parseMeasureName(name);
  if (ref === null || ref.arm > CANDIDATE_ARM) {
    return { name, group: name, sibling: false, guard: false, side: "other", pair: 1 };
  }
  const side = ref.arm === BASE_ARM ? "base" : "candidate";
  return { name, group: ref.sibling ?? "", sibling: ref.sibling !== null, guard: false, side, pair: ref.pair };
}

/** One benchmark's measures, in reading order. */
export interface MeasureGroup {
  /** "" for the climbed benchmark, else the sibling's (or unknown measure's) name. */
  readonly group: string;
  readonly sibling: boolean;
  readonly guard: boolean;
  readonly measures: readonly MeasureName[];
}

/**
 * The measures grouped by benchmark, in reading order: the climbed benchmark
 * first, then siblings in the order they first appear; inside a group pair by
 * pair, base before candidate (`baseline`, `candidate`, `baseline#2`, …).
 */
export function groupMeasures(names: readonly string[]): MeasureGroup[] {
  const groups = new Map<string, MeasureName[]>();
  const parsed = names.map(parseMeasure);
  const main = parsed.filter((m) => m.group === "" && !m.sibling && !m.guard);
  if (main.length > 0) groups.set("\0main", main);
  for (const m of parsed) {
    if (m.group === "" && !m.sibling && !m.guard) continue;
    const key = `${m.sibling ? "s" : m.guard ? "g" : "o"}:${m.group}`;
    const list = groups.get(key) ?? [];
    list.push(m);
    groups.set(key, list);
  }
  const sideRank = { base: 0, candidate: 1, other: 2 };
  return [...groups.values()].map((list) => {
    const first = list[0] as MeasureName;
    const sorted = [...list].sort((a, b) => a.pair - b.pair || sideRank[a.side] - sideRank[b.side]);
    return { group: first.group, sibling: first.sibling, guard: first.guard, measures: sorted };
  });
}

/** One row of a run's values: a benchmark's base and candidate of one pair, side by side. */
export interface PairRow {
  /** "" for the climbed benchmark, else the sibling's name or the guard's metric. */
  readonly group: string;
  readonly sibling: boolean;
  readonly guard: boolean;
  /** The pair (1 = first); null for the summary row of a group with several pairs. */
  readonly pair: number | null;
  /** How many pairs the group has. */
  readonly pairsInGroup: number;
  readonly base: number | null;
  readonly candidate: number | null;
  /**
   * The difference, candidate − base: the run's recorded difference of the
   * pair (decision.json's `deltas`) when there is one, else computed; on the
   * summary row the mean difference over the pairs.
   */
  readonly difference: number | null;
}

/**
 * A run's values as rows of pairs, group by group (`groupMeasures` order).
 * A group with several pairs gets one row per pair and then a summary row
 * (`pair: null`) with the mean of each side and the mean difference — for
 * the climbed benchmark `benchmarkDifference` when given (the run's
 * `difference`, which agrees with its improvement to the last bit), else the
 * mean of the pairs' differences. The climbed benchmark's summary row is
 * that of the pairs its estimate kept: `setAside` (the pairs it set aside
 * as outlying) are left out of its side means, as they are of the
 * estimate. Measures that are neither base nor candidate come back in
 * `others`.
 */
export function pairRows(
  values: Readonly<Record<string, number>>,
  differences: Readonly<Record<string, number>>,
  benchmarkDifference: number | null = null,
  setAside: readonly number[] = [],
): { rows: PairRow[]; others: [string, number][] } {
  const rows: PairRow[] = [];
  const others: [string, number][] = [];
  const val = (m: MeasureName | undefined) => (m === undefined ? null : values[m.name] ?? null);
  const mean = (xs: readonly (number | null)[]) => {
    const known = xs.filter((x): x is number => x !== null);
    return known.length === 0 || known.length < xs.length ? null : known.reduce((s, x) => s + x, 0) / known.length;
  };
  for (const g of groupMeasures(Object.keys(values))) {
    if (g.measures.every((m) => m.side === "other")) {
      for (const m of g.measures) others.push([m.name, values[m.name] as number]);
      continue;
    }
    const pairNumbers = [...new Set(g.measures.map((m) => m.pair))];
    const at = (pair: number, side: MeasureName["side"]) => g.measures.find((m) => m.pair === pair && m.side === side);
    const of = (pair: number): number | null => {
      const recorded = differences[
        g.guard
          ? guardName(g.group, CANDIDATE_ARM, pair)
          : differenceName(g.sibling ? g.group : null, CANDIDATE_ARM, pair)
      ];
      if (recorded !== undefined) return recorded;
      const base = val(at(pair, "base")), candidate = val(at(pair, "candidate"));
      return base !== null && candidate !== null ? candidate - base : null;
    };
    const n = pairNumbers.length;
    for (const pair of pairNumbers) {
      const base = val(at(pair, "base")), candidate = val(at(pair, "candidate"));
      rows.push({
        group: g.group,
        sibling: g.sibling,
        guard: g.guard,
        pair,
        pairsInGroup: n,
        base,
        candidate,
        difference: of(pair),
      });
    }
    if (n > 1) {
      const main = !g.sibling && !g.guard && g.group === "";
      const kept = main ? pairNumbers.filter((p) => !setAside.includes(p)) : pairNumbers;
      const side = (s: MeasureName["side"]) => mean(kept.map((p) => val(at(p, s))));
      const given = main ? benchmarkDifference : null;
      const difference = given ?? mean(kept.map(of));
      rows.push({
        group: g.group,
        sibling: g.sibling,
        guard: g.guard,
        pair: null,
        pairsInGroup: n,
        base: side("base"),
        candidate: side("candidate"),
        difference,
      });
    }
  }
  return { rows, others };
}

/**
 * How a row names its pair: "" for a lone pair, " pair 2", or " mean of 5
 * pairs" on a summary row. For the climbed benchmark, `setAside` (the pairs
 * its estimate set aside as outlying) marks those (" pair 8 (set aside)") and
 * makes the summary row the kept pairs' (" mean of 9 of 10 pairs; pair 8 set
 * aside"), as its value is.
 */
export function pairLabel(row: PairRow, setAside: readonly number[] = []): string {
  if (row.pairsInGroup <= 1) return "";
  const aside = row.sibling || row.group !== "" ? [] : setAside;
  if (row.pair === null) return ` ${meanOfPairs(row.pairsInGroup, aside)}`;
  return aside.includes(row.pair) ? ` pair ${row.pair} (set aside)` : ` pair ${row.pair}`;
}
