import { BASE_ARM, parseMeasureName } from "../measure/measure_name.ts";
import { differenceRange } from "../stats/difference.ts";
import type { ImprovementInterval, RunSummary } from "./model.ts";
import type { ArmEstimate } from "./round_model.ts";

/**
 * What the report model still derives itself while src/views leaves the
 * model's newer fields unset (`undefined`): the benchmark's plotted means,
 * its difference interval, a round candidate's difference interval and a
 * pair's difference. Renderers never call these: they read the model
 * through model.ts's accessors, which use the field when the views fill it
 * and come here only when they do not. Delete this module once every field
 * is filled (`RunSummary.means`, `RunSummary.differenceInterval`,
 * `ArmEstimate.differenceInterval`, `PairValues.difference`).
 */

/** The benchmark's plotted means as the views' fields would give them. */
export function derivedMeans(run: RunSummary): { baseline: number | null; candidate: number | null } {
  if (run.round !== null) {
    const w = run.round.arms.find((a) => a.winner);
    const e = w === undefined ? null : w.confirmation ?? w.screen;
    if (e !== null) return { baseline: e.baseline, candidate: e.candidate };
    const base = Object.entries(run.values).filter(([k]) => {
      const ref = parseMeasureName(k);
      return ref !== null && ref.sibling === null && ref.arm === BASE_ARM;
    }).map(([, v]) => v);
    const mean = base.length === 0 ? null : finiteOrNull(base.reduce((s, x) => s + x, 0) / base.length);
    return { baseline: mean, candidate: null };
  }
  if (run.pairs.length > 0) {
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    return {
      baseline: finiteOrNull(mean(run.pairs.map((p) => p.baseline))),
      candidate: finiteOrNull(mean(run.pairs.map((p) => p.candidate))),
    };
  }
  return { baseline: finiteOrNull(run.values["baseline"]), candidate: finiteOrNull(run.values["candidate"]) };
}

/** The improvement's interval through the direction: the difference interval the decision's estimate gives. */
export function derivedDifferenceInterval(
  direction: RunSummary["direction"],
  i: ImprovementInterval | null,
): ImprovementInterval | null {
  if (i === null) return null;
  const [lower, upper] = differenceRange(direction, i.lower, i.upper);
  return { lower, upper, confidence: i.confidence };
}

/** A round candidate's difference interval from its improvement's. */
export function derivedArmDifferenceInterval(
  e: ArmEstimate,
  direction: RunSummary["direction"],
): ImprovementInterval | null {
  return derivedDifferenceInterval(direction, e.estimate.interval);
}

/** A pair's difference from its two values. */
export function derivedPairDifference(p: { baseline: number; candidate: number }): number {
  return p.candidate - p.baseline;
}

function finiteOrNull(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}
