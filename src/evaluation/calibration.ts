import type { Measure } from "../measure/measure.ts";
import { BASE_ARM, CANDIDATE_ARM, parseMeasureName } from "../measure/measure_name.ts";
import { difference } from "../stats/difference.ts";
import { type Direction, improvement } from "../stats/improvement.ts";
import {
  calibrate,
  type Calibration,
  detectableEffect,
  MAX_SUGGESTED_PAIRS,
  SIBLING_HELD,
  SUGGESTED_LOOKS,
  SUGGESTION_POWER,
} from "../stats/power.ts";
import { finalLook, sequentialDesign } from "../stats/sequential.ts";
import { logImprovements } from "../stats/relative.ts";
import type { CalibrationRecord, RelativeSuggestion, SiblingSpread } from "../rundir/calibration_file.ts";
import { runIdentity, type RunRecord } from "../rundir/run_record.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";

/**
 * The calibration of an A/A run from its measured values. Pair i measures
 * the base tree twice on the pair's seed (`baseline#i` and `candidate#i`,
 * and `sib-<name>-base#i` / `sib-<name>-cand#i` for each sibling); its
 * improvement is the second measure over the first in the benchmark's own
 * direction (the sibling's for a sibling), so mirrored data — `t` minimized,
 * `−t` maximized — calibrates identically. The spread of those improvements
 * is the noise a verdict on this benchmark has to see through
 * (src/stats/power.ts); `derivation` says in one sentence how the suggestion
 * follows from it. A pure function of the run and its values.
 */
export function calibrationOf(
  r: RunRecord,
  plan: readonly Measure[],
  values: Readonly<Record<string, number>>,
  seeds: readonly number[],
  now: () => number,
): CalibrationRecord {
  const c = r.contract;
  const directions = new Map<string | null, Direction>([
    [null, c.direction],
    ...c.siblings.map((s): [string, Direction] => [s.name, s.direction]),
  ]);
  const sides = new Map<string | null, { first: number[]; second: number[] }>();
  for (const m of plan) {
    const ref = parseMeasureName(m.name);
    if (ref === null || !directions.has(ref.sibling)) continue;
    const side = sides.get(ref.sibling) ?? { first: [], second: [] };
    sides.set(ref.sibling, side);
    if (ref.arm === BASE_ARM) side.first[ref.pair - 1] = values[m.name]!;
    if (ref.arm === CANDIDATE_ARM) side.second[ref.pair - 1] = values[m.name]!;
  }
  const improvementsOf = (sibling: string | null): number[] => {
    const side = sides.get(sibling) ?? { first: [], second: [] };
    return side.second.map((v, i) => improvement(directions.get(sibling)!, side.first[i]!, v));
  };
  const main = sides.get(null) ?? { first: [], second: [] };
  const differences = main.second.map((v, i) => difference(main.first[i]!, v));
  const calibration = calibrate(
    improvementsOf(null),
    c.confidence,
    Object.fromEntries(c.siblings.map((s) => [s.name, improvementsOf(s.name)])),
  );
  const siblings: Record<string, SiblingSpread> = Object.fromEntries(
    c.siblings.map((s) => [s.name, { ...calibration.siblings[s.name]!, metric: s.metric, direction: s.direction }]),
  );
  return {
    ...calibration,
    siblings,
    derivation: derivationOf(calibration, c.confidence),
    // the README promised it "when every value is positive": calibration.json, the output and --json give it
    relativeSuggestion: relativeSuggestionOf(r, plan, values),
    baseSha: r.baseSha,
    runIdentity: runIdentity(r),
    calibratedAt: new Date(now()).toISOString(),
    benchmark: c.name,
    metric: c.metric,
    direction: c.direction,
    confidence: c.confidence,
    seeds,
    values: Object.fromEntries(plan.map((m) => [m.name, values[m.name]!])),
    differences,
  };
}

/**
 * How `calibrate` reached its suggestion, as one sentence with the numbers:
 * min_effect from the bias check's power at the A/A pairs, max_repeats and
 * repeats from the last look's power at min_effect + 1 sd, each sibling's
 * tolerance from the chance an unchanged sibling is held. Assumes the
 * default target (one sd), as `calibrationOf` calibrates.
 */
function derivationOf(c: Calibration, confidence: number): string {
  const f = formatStat;
  const power = formatPercent(SUGGESTION_POWER);
  const s = c.suggestion;
  const design = sequentialDesign(s.repeats, s.maxRepeats, confidence);
  const looks = design.looks.map((l) => l.n).join(", ");
  const lastFinds = detectableEffect(c.sd, s.maxRepeats, finalLook(design).level!, SUGGESTION_POWER);
  const parts = [
    `min_effect ${formatNumber(s.minEffect)}: the smallest systematic difference between two measures of one tree ` +
    `that this A/A check (${c.n} pairs, ${formatPercent(confidence)} interval excluding 0) finds with ${power} ` +
    `power (sd ${f(c.sd)} × ${f(detectableEffect(1, c.n, confidence, SUGGESTION_POWER))}, rounded up), ` +
    `so an accept must clear a bias the check could miss`,
    lastFinds <= c.sd || s.maxRepeats < MAX_SUGGESTED_PAIRS
      ? `max_repeats ${s.maxRepeats}: the fewest pairs whose last look (of ${design.looks.length}, at ${looks} pairs) ` +
        `finds an improvement of min_effect + 1 sd (${f(s.minEffect + c.sd)}) with ${power} power`
      : `max_repeats ${s.maxRepeats}: the most calibrate suggests (looks at ${looks} pairs), whose last look finds ` +
        `only min_effect + ${f(lastFinds)} with ${power} power, not min_effect + 1 sd (${f(s.minEffect + c.sd)})`,
    `repeats ${s.repeats}: ⌈max_repeats / ${SUGGESTED_LOOKS}⌉, ${design.looks.length} looks`,
  ];
  if (s.noise !== undefined) {
    const aside = c.n - s.noise.pairs;
    parts.push(
      `noise sd ${formatNumber(s.noise.sd)} over ${s.noise.pairs} pairs: the sd of the A/A pairs ` +
        (aside === 0 ? "(none set aside by the generalized ESD test at 1%)" : `the generalized ESD test at 1% kept ` +
          `(${aside} set aside as stalled)`) +
        ", rounded up, so the verdict sets a pair aside when it lies beyond a fence of about 4 such sd from the " +
        "look's median instead of judging by the look's own spread",
    );
  }
  const sibs = Object.entries(s.siblings).map(([name, t]) =>
    `${name} ${formatNumber(t.tolerance)} (sd ${f(c.siblings[name]!.sd)})`
  );
  if (sibs.length > 0) {
    parts.push(
      `tolerance ${sibs.join(", ")}: the smallest with which an unchanged sibling is held ` +
        `(interval's lower end ≥ −tolerance) with ${formatPercent(SIBLING_HELD)} chance at that design's last look`,
    );
  }
  return parts.join("; ") + ".";
}

/** A fraction as a percentage rounded up to two significant digits: 0.02134 → "2.2%", 0.0037 → "0.37%". */
export function percentUp(fraction: number): string {
  if (!(fraction > 0)) return "0%";
  const pct = fraction * 100;
  const step = 10 ** (Math.floor(Math.log10(pct)) - 1);
  const up = Math.ceil(pct / step - 1e-9) * step;
  return `${Number(up.toPrecision(2))}%`;
}

/**
 * The suggestion in its relative form, for a benchmark whose every A/A
 * value is positive: `calibrate` on the log improvements of the paired
 * ratio (src/stats/relative.ts) — the scale a relative min_effect and
 * tolerance are judged on — with each threshold written as a percentage
 * rounded up to two significant digits (`"2.2%"`). Per sibling too, null for
 * a sibling with a value ≤ 0. Null for the benchmark (and so the whole
 * suggestion) when one of its values is ≤ 0: no ratio exists.
 */
export function relativeSuggestionOf(
  r: RunRecord,
  plan: readonly Measure[],
  values: Readonly<Record<string, number>>,
): RelativeSuggestion | null {
  const c = r.contract;
  const pairsOf = (sibling: string | null) => {
    const first: number[] = [];
    const second: number[] = [];
    for (const m of plan) {
      const ref = parseMeasureName(m.name);
      if (ref === null || ref.sibling !== sibling) continue;
      if (ref.arm === BASE_ARM) first[ref.pair - 1] = values[m.name]!;
      if (ref.arm === CANDIDATE_ARM) second[ref.pair - 1] = values[m.name]!;
    }
    return { first, second };
  };
  const logsOf = (sibling: string | null, direction: Direction) => {
    const { first, second } = pairsOf(sibling);
    return logImprovements(direction, first, second);
  };
  const main = logsOf(null, c.direction);
  if (main === null || main.length === 0) return null;
  const sibLogs = c.siblings.map((s) => [s.name, logsOf(s.name, s.direction)] as const);
  const cal = calibrate(
    main,
    c.confidence,
    Object.fromEntries(sibLogs.filter(([, xs]) => xs !== null && xs.length > 0) as [string, number[]][]),
  );
  return {
    minEffect: percentUp(Math.expm1(cal.suggestion.minEffect)),
    siblings: Object.fromEntries(
      sibLogs.map(([name]) => {
        const t = cal.suggestion.siblings[name];
        return [name, t === undefined ? null : percentUp(Math.expm1(t.tolerance))];
      }),
    ),
  };
}
