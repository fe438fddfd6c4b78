import { CANDIDATE_ARM, differenceName } from "../measure/measure_name.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import { differenceOfImprovement, differenceRange } from "../stats/difference.ts";
import { improvementOfDifference } from "../stats/improvement.ts";
import type { Estimate } from "../verdict/decide.ts";
import type { RelativeEstimate } from "../stats/relative.ts";
import { setAsideReason } from "../verdict/set_aside_reason.ts";

/**
 * The benchmark's two quantities as a decision gives them, each under its own
 * name (docs/design.md, "Rules a change must keep"):
 *
 * - the **improvement**, the estimate the verdict rests on, positive = better:
 *   a repeated design's `benchmark` (its n, mean, interval, level, method and
 *   the pairs it set aside), or a single pair's difference through the
 *   direction, which has no interval;
 * - the **difference**, candidate − baseline (the raw sign): the
 *   improvement's mean and interval mapped through the direction — the same
 *   for `maximize`, negated and swapped for `minimize` — so the two agree to
 *   the last bit.
 *
 * A round's are its winner's: the confirmation's estimate, on pairs that did
 * not choose it (its `set_aside` in the round's pair numbers); a round
 * without a winner has neither (each candidate's estimate is in `round`).
 *
 * `show --json`, `resume --json` (and `wait --json`), `runs` and the reports
 * all read them from here.
 */

/** The improvement's estimate (positive = better). */
export interface ImprovementQuantity {
  /** Pairs measured (set-aside pairs included). */
  readonly n: number;
  /** The mean improvement of the pairs kept. */
  readonly mean: number;
  /** The interval's ends and level; null for a single pair, which has no interval. */
  readonly lower: number | null;
  readonly upper: number | null;
  readonly confidence: number | null;
  /** The method, in the reasons' words. */
  readonly method: string;
  /** The pairs (1-based) the estimate set aside as outlying, in pair order; [] when none. */
  readonly setAside: readonly number[];
}

/** The mean difference (candidate − baseline) and its interval, at the improvement's level. */
export interface DifferenceQuantity {
  readonly n: number;
  readonly mean: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly confidence: number | null;
}

/**
 * The relative change: the candidate / baseline ratio (src/stats/relative.ts,
 * the paired log ratios through the verdict's interval method, then exp),
 * with its interval — mirrored exactly between t minimized and 1/t maximized.
 * Interval null for a single pair.
 */
export interface RelativeQuantity {
  readonly n: number;
  readonly mean: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly confidence: number | null;
  readonly method: string;
}

/** Both quantities of a decided run's benchmark, and its relative change (null for a metric not always > 0). */
export interface BenchmarkQuantities {
  readonly improvement: ImprovementQuantity;
  readonly difference: DifferenceQuantity;
  readonly relative: RelativeQuantity | null;
}

/** The method's words for a single pair (verdict/reasons.ts `methodOf`). */
const SINGLE_PAIR = "single pair, no interval";

/** The benchmark's improvement and difference, or null when the decision has neither (no benchmark pair). */
export function benchmarkQuantities(d: DecisionRecord): BenchmarkQuantities | null {
  // a crash judges nothing: no estimate of a broken proposal's effect
  if (d.verdict === "crashed") return null;
  if (d.round !== undefined) {
    const w = d.round.winner;
    if (w === null) return null;
    const setAside = w.estimate.setAside.map((p) => p + w.firstPair - 1);
    const q = w.estimate.n < 2 ? single(d, w.estimate.mean) : ofEstimate(d, { ...w.estimate, setAside });
    return { ...q, relative: relativeOf(w.estimate.relative) };
  }
  const b = d.paired?.benchmark;
  if (b !== undefined) return { ...ofEstimate(d, b), relative: relativeOf(d.relative?.benchmark ?? b.relative) };
  const diff = d.deltas[differenceName(null, CANDIDATE_ARM)];
  if (diff === undefined) return null;
  return { ...single(d, improvementOfDifference(d.direction, diff)), relative: relativeOf(d.relative?.benchmark) };
}

/** A ratio estimate as the quantities carry it (no interval for one pair); null when there is none (a value ≤ 0, or a decision from before). */
export function relativeOf(r: RelativeEstimate | null | undefined): RelativeQuantity | null {
  if (r === null || r === undefined) return null;
  const interval = r.n >= 2;
  return {
    n: r.n,
    mean: r.mean,
    lower: interval ? r.lower : null,
    upper: interval ? r.upper : null,
    confidence: interval ? r.confidence : null,
    method: r.method,
  };
}

/** A single pair's quantities: its improvement and difference, with no interval. */
function single(d: DecisionRecord, improvement: number): Omit<BenchmarkQuantities, "relative"> {
  const none = { lower: null, upper: null, confidence: null };
  return {
    improvement: { n: 1, mean: improvement, ...none, method: SINGLE_PAIR, setAside: [] },
    difference: { n: 1, mean: differenceOfImprovement(d.direction, improvement), ...none },
  };
}

/** An estimate's quantities: the improvement as it is, the difference through the direction. */
function ofEstimate(d: DecisionRecord, b: Estimate): Omit<BenchmarkQuantities, "relative"> {
  const [lower, upper] = differenceRange(d.direction, b.lower, b.upper);
  return {
    improvement: {
      n: b.n,
      mean: b.mean,
      lower: b.lower,
      upper: b.upper,
      confidence: b.confidence,
      method: b.method,
      setAside: [...b.setAside].sort((x, y) => x - y),
    },
    difference: {
      n: b.n,
      mean: differenceOfImprovement(d.direction, b.mean),
      lower,
      upper,
      confidence: b.confidence,
    },
  };
}

/** Both quantities in `--json`'s form: `improvement` and `difference`, snake_case, every key present. */
export function quantitiesJson(q: BenchmarkQuantities | null) {
  if (q === null) return { improvement: null, difference: null, relative: null };
  const i = q.improvement, d = q.difference;
  return {
    improvement: {
      n: i.n,
      mean: i.mean,
      lower: i.lower,
      upper: i.upper,
      confidence: i.confidence,
      method: i.method,
      set_aside: [...i.setAside],
      set_aside_why: i.setAside.length === 0 ? null : setAsideReason(i.method),
    },
    difference: { n: d.n, mean: d.mean, lower: d.lower, upper: d.upper, confidence: d.confidence },
    relative: q.relative && { ...q.relative },
  };
}
