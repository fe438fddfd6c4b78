import type { Scale } from "../contract/contract.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import type { IntervalMethod, LocationInterval } from "../stats/location_interval.ts";
import { logImprovements, logThreshold, ratioOf, type RelativeEstimate, relativeWhy } from "../stats/relative.ts";
import { type ComparedSeries, finiteInterval } from "./finite_interval.ts";

/**
 * One compared quantity (the benchmark, a sibling, a guard) on the scale its
 * threshold is written in: the improvements in the metric's units for an
 * absolute min_effect or tolerance, the log improvements of the paired ratio
 * for a relative one ("2%": src/stats/relative.ts). The look rule reads the
 * judged interval against the threshold on the same scale, so a relative
 * rule is the absolute rule applied to ℓᵢ with min_effect log(1.02).
 */

/** The quantity's intervals at one level. */
export interface JudgedSide {
  /** The interval in the metric's units (always: every surface shows it). */
  readonly absolute: LocationInterval;
  /** The interval the verdict reads: `absolute`, or the log improvements' for a relative threshold. */
  readonly judged: LocationInterval;
  /** The improvements `judged` rests on (what the futility rule predicts from). */
  readonly judgedImprovements: readonly number[];
  /** The threshold on the judged scale: the value, or log(1 + fraction). */
  readonly threshold: number;
  readonly scale: Scale;
  /** The candidate/baseline ratio with its interval; null when a value is ≤ 0. */
  readonly relative: RelativeEstimate | null;
}

/**
 * The quantity's intervals at `level`; the ratio's by `relativeMethod` of
 * the absolute interval (by default `method`: a calibrated benchmark's ratio
 * sets aside the pairs its absolute estimate did, since its fence is in the
 * metric's units). A relative threshold on a value ≤ 0
 * cannot be judged: an `EvalError` (exit 3) naming the measure, as an
 * overflowing difference is (finite_interval.ts) — the benchmark reports
 * something that is not a positive quantity.
 */
export function judgedSide(
  s: ComparedSeries,
  scale: Scale,
  threshold: number,
  level: number,
  pairName: (name: string, pair: number) => string,
  method: IntervalMethod,
  methodWords: string,
  relativeMethod: (absolute: LocationInterval) => IntervalMethod = () => method,
): JudgedSide {
  const absolute = finiteInterval(s, level, pairName, method);
  const logs = logImprovements(s.direction, s.base, s.cand);
  const logIv = logs === null ? null : relativeMethod(absolute).interval(logs, level);
  const relative = logIv === null ? null : ratioOf(s.direction, logIv, methodWords);
  if (scale === "absolute") {
    return {
      absolute,
      judged: absolute,
      judgedImprovements: s.base.map((b, i) => s.direction === "maximize" ? s.cand[i]! - b : b - s.cand[i]!),
      threshold,
      scale,
      relative,
    };
  }
  if (logs === null || logIv === null) {
    const why = relativeWhy(s.metric, s.base, s.cand);
    throw new EvalError(
      `Cannot decide: a relative threshold ("${Number((threshold * 100).toPrecision(12))}%") is judged on the ratio ` +
        `of ${JSON.stringify(s.baseName)} and ${JSON.stringify(s.candName)}, but ${why}; ` +
        "give the threshold in the metric's units (a number) instead",
    );
  }
  return { absolute, judged: logIv, judgedImprovements: logs, threshold: logThreshold(threshold), scale, relative };
}
