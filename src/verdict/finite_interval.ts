import { EvalError } from "../dispatch/eval_error.ts";
import { improvement } from "../stats/improvement.ts";
import { type IntervalMethod, type LocationInterval, STUDENT_T } from "../stats/location_interval.ts";

/**
 * The one place a decision's arithmetic can leave the doubles. Every measured
 * value is finite (the result reader refuses anything else), but their
 * difference need not be: 1.7e308 − (−1.7e308) is Infinity, and so is the
 * spread of improvements around 1e155. Such a run cannot be decided — the
 * interval would throw (a bug's exit 1, again at every resume) or come out
 * NaN — so it fails as an evaluation does (`EvalError`, exit 3), naming the
 * measures and their values: a benchmark reporting numbers that large is
 * reporting something other than its metric.
 */

/** One compared quantity over the pairs: the benchmark or a sibling. */
export interface ComparedSeries {
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  /** Measure names of pair 1 (`baseline`, `sib-x-base`); pair i's come from the caller's `pairName`. */
  readonly baseName: string;
  readonly candName: string;
  readonly base: readonly number[];
  readonly cand: readonly number[];
}

/** The series' improvements, pair by pair (candidate − baseline in the direction's favour). */
function improvementsOf(s: ComparedSeries): number[] {
  return s.base.map((b, i) => improvement(s.direction, b, s.cand[i]!));
}

/**
 * The interval of the series' improvements at `level` by `method` (Student t
 * unless told: `pairedInterval`), or an `EvalError` when a pair's difference
 * or the interval overflows. `pairName(name, pair)` names a measure of pair
 * `pair` (1-based), as the decision does.
 */
export function finiteInterval(
  s: ComparedSeries,
  level: number,
  pairName: (name: string, pair: number) => string,
  method: IntervalMethod = STUDENT_T,
): LocationInterval {
  const improvements = improvementsOf(s);
  improvements.forEach((d, i) => {
    if (Number.isFinite(d)) return;
    const base = JSON.stringify(pairName(s.baseName, i + 1));
    const cand = JSON.stringify(pairName(s.candName, i + 1));
    throw new EvalError(
      `Cannot decide: the difference of measures ${cand} (${s.cand[i]}) and ${base} (${s.base[i]}) ` +
        `overflows to ${s.cand[i]! - s.base[i]!}; check what the benchmark reports as ${JSON.stringify(s.metric)}`,
    );
  });
  const iv = method.interval(improvements, level);
  if (![iv.mean, iv.lower, iv.upper].every(Number.isFinite)) {
    const names = [s.baseName, s.candName].map((n) => JSON.stringify(n)).join(" and ");
    throw new EvalError(
      `Cannot decide: the improvements of ${names} over ${iv.n} pairs (${improvements.join(", ")}) spread too ` +
        `widely for an interval (it overflows); check what the benchmark reports as ${JSON.stringify(s.metric)}`,
    );
  }
  return iv;
}
