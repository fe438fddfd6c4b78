import type { Measure } from "../measure/measure.ts";
import { splitPairName } from "../measure/measure_name.ts";
import { calibrate } from "../stats/power.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { runIdentity, type RunRecord } from "../rundir/run_record.ts";

/**
 * The calibration of an A/A run from its measured values: pair i's
 * difference is its second side minus its first (`candidate#i` −
 * `baseline#i`, both the base tree, on the pair's seed), and the spread of
 * those differences is the noise a verdict on this benchmark has to see
 * through (src/stats/power.ts). A pure function of the run and its values.
 */
export function calibrationOf(
  r: RunRecord,
  plan: readonly Measure[],
  values: Readonly<Record<string, number>>,
  seeds: readonly number[],
  now: () => number,
): CalibrationRecord {
  const first: number[] = [];
  const second: number[] = [];
  for (const m of plan) {
    const { name } = splitPairName(m.name);
    if (name === "baseline") first.push(values[m.name]!);
    if (name === "candidate") second.push(values[m.name]!);
  }
  const differences = second.map((v, i) => v - first[i]!);
  const c = r.contract;
  const shown = Object.fromEntries(plan.map((m) => [m.name, values[m.name]!]));
  return {
    ...calibrate(differences, c.confidence),
    baseSha: r.baseSha,
    runIdentity: runIdentity(r),
    calibratedAt: new Date(now()).toISOString(),
    benchmark: c.name,
    metric: c.metric,
    confidence: c.confidence,
    seeds,
    values: shown,
    differences,
  };
}
