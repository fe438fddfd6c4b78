import type { Contract } from "../contract/contract.ts";
import {
  BASE_ARM,
  benchmarkName,
  CANDIDATE_ARM,
  differenceName,
  guardName,
  pairMeasureName,
  siblingName,
} from "../measure/measure_name.ts";
import type { Verdict } from "../stats/look_rule.ts";
import type { PairedValues } from "./decide.ts";

/**
 * A candidate whose eval crashed — exited non-zero, printed no or an
 * unreadable metric, ran past eval_minutes — has a verdict of its own: the
 * proposal is broken, which a loop must tell apart from "rejected" (it did
 * not improve) and from "the run failed" (nothing could be judged, a
 * baseline's or the harness's failure). Nothing it measured is judged: a
 * crash says nothing about the candidate's speed, and judging the pairs
 * before it would read a verdict into a broken proposal's partial numbers.
 * What it measured is kept, so every surface can show it.
 *
 * `CandidateVerdict` widens the look rule's three verdicts by this one; the
 * decision file, the exit codes and the surfaces learn it from here.
 */

/** A candidate's verdict: the look rule's, or "crashed". */
export type CandidateVerdict = Verdict | "crashed";

/** Which measure crashed and why, as the measurer reports it. */
export interface Crash {
  /** The measure name (`candidate#3`, `sib-lat-cand#2`). */
  readonly measure: string;
  /** One line: `eval exited with code 1`, `no metric "t" in the result`, …. */
  readonly cause: string;
}

/** A crashed candidate's decision: decision.json's keys, with the crash. */
export interface CrashedDecision {
  readonly verdict: "crashed";
  /** Every value measured before the crash, by measure name (pairs the crash left incomplete included). */
  readonly values: Readonly<Record<string, number>>;
  /** Candidate − baseline for every pair whose both measures are in. */
  readonly deltas: Readonly<Record<string, number>>;
  readonly reasons: readonly string[];
  readonly crash: Crash;
}

/** `candidate crashed: <cause>`, the reason every surface leads with. */
export function crashedReason(crash: Crash): string {
  return `candidate crashed: ${crash.cause} (measure ${JSON.stringify(crash.measure)}); ` +
    "nothing it measured is judged: read its log, fix or discard it";
}

function listOf(values: PairedValues, name: string): number[] {
  const v = values[name];
  return v === undefined ? [] : typeof v === "number" ? [v] : [...v];
}

/**
 * The decision on one candidate whose measure `crash.measure` crashed, from
 * the values measured so far (series by pair-1 name, as `decideLook` takes
 * them, each as long as it got: the crashed series and its pair's partner
 * may be shorter).
 */
export function crashedDecision(contract: Contract, values: PairedValues, crash: Crash): CrashedDecision {
  const series = seriesNames(contract);
  const out: Record<string, number> = {};
  const deltas: Record<string, number> = {};
  for (const [baseName, candName, deltaName] of series) {
    const base = listOf(values, baseName);
    const cand = listOf(values, candName);
    base.forEach((x, p) => (out[pairMeasureName(baseName, p + 1)] = x));
    cand.forEach((x, p) => (out[pairMeasureName(candName, p + 1)] = x));
    for (let p = 0; p < Math.min(base.length, cand.length); p++) {
      const key = deltaName === null ? differenceName(null, CANDIDATE_ARM, p + 1) : pairMeasureName(deltaName, p + 1);
      deltas[key] = cand[p]! - base[p]!;
    }
  }
  return { verdict: "crashed", values: out, deltas, reasons: [crashedReason(crash)], crash };
}

/** Each series a crash keeps: the benchmark's, each sibling's and each guard's base and candidate names, and its delta key. */
function seriesNames(contract: Contract): [string, string, string | null][] {
  return [
    [benchmarkName(BASE_ARM), benchmarkName(CANDIDATE_ARM), differenceName(null, CANDIDATE_ARM)],
    ...contract.siblings.map((s): [string, string, string] => [
      siblingName(s.name, BASE_ARM),
      siblingName(s.name, CANDIDATE_ARM),
      differenceName(s.name, CANDIDATE_ARM),
    ]),
    ...contract.guards.map((g): [string, string, string] => [
      guardName(g.metric, BASE_ARM),
      guardName(g.metric, CANDIDATE_ARM),
      guardName(g.metric, CANDIDATE_ARM),
    ]),
  ];
}

/**
 * The decision on one candidate whose measure `crash.measure` crashed, from
 * the values in hand by measure name over pairs 1 … `pairs`: a crash decides
 * at once (fail fast), so a pair may miss a side (its job stopped) or a gap
 * may sit between pairs still measuring; every value keeps its own name, and
 * a pair's difference is given only when both sides are in.
 */
export function crashedDecisionByName(
  contract: Contract,
  pairs: number,
  values: Readonly<Record<string, number>>,
  crash: Crash,
): CrashedDecision {
  const out: Record<string, number> = {};
  const deltas: Record<string, number> = {};
  for (const [baseName, candName, deltaName] of seriesNames(contract)) {
    for (let p = 1; p <= pairs; p++) {
      const base = values[pairMeasureName(baseName, p)];
      const cand = values[pairMeasureName(candName, p)];
      if (base !== undefined) out[pairMeasureName(baseName, p)] = base;
      if (cand !== undefined) out[pairMeasureName(candName, p)] = cand;
      if (base === undefined || cand === undefined) continue;
      const key = deltaName === null ? differenceName(null, CANDIDATE_ARM, p) : pairMeasureName(deltaName, p);
      deltas[key] = cand - base;
    }
  }
  return { verdict: "crashed", values: out, deltas, reasons: [crashedReason(crash)], crash };
}
