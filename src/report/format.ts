import { formatDifference, formatEstimate, formatMeasured, formatPercent } from "../text/numbers.ts";
import { factorWord, isTimeUnit } from "../verdict/relative_words.ts";
import {
  armDifferenceInterval,
  benchmarkValues,
  type CrashSummary,
  differenceInterval,
  type ImprovementInterval,
  type RelativeEstimate,
  type RunSummary,
} from "./model.ts";
import { type ArmEstimate, pairRange, type RoundArm, shownEstimate } from "./round_model.ts";
/** Durations read the same in every surface; the one formatter lives with the numbers (src/text/). */
export { formatDuration } from "../text/duration.ts";

/**
 * The words and numbers every report shares — the text table, the Markdown
 * and the HTML — so a run reads the same in all three. Nothing here depends
 * on the clock or the local time zone.
 */

/** How many characters of a sha the reports show: enough to be unique in any real repository. */
const SHORT_SHA = 10;

/** The first `SHORT_SHA` characters of a sha. */
export function shortSha(sha: string | null): string {
  return sha === null ? "none" : sha.slice(0, SHORT_SHA);
}

/** A measured value for a table (`formatMeasured`: at most 6 significant digits), "" for a missing one. */
export function formatValue(n: number | null | undefined): string {
  return n === null || n === undefined ? "" : formatMeasured(n);
}

/** A measured change with its sign, so "+2" and "-0.5" read as changes; "" for a missing one. */
export function formatSigned(n: number | null | undefined): string {
  return n === null || n === undefined ? "" : formatMeasured(n, true);
}

/**
 * One pair's difference (candidate − baseline) with its sign, to the decimals
 * its two values print with (`formatDifference`); "" for a missing one.
 */
export function formatPairDifference(
  difference: number | null | undefined,
  baseline: number | null | undefined,
  candidate: number | null | undefined,
): string {
  if (difference === null || difference === undefined) return "";
  const of = [baseline, candidate].filter((v): v is number => v !== null && v !== undefined);
  return formatDifference(difference, of, true);
}

/** An estimate's mean and its interval as a person reads them: `+0.75` and `[+0.66, +0.84] 95%`. */
export interface EstimateCells {
  readonly mean: string;
  /** "" when there is no interval (a single pair). */
  readonly interval: string;
}

/**
 * A mean and its interval, signed, to the digits the interval's width
 * supports (text/numbers.ts `formatEstimate`). Without an interval (a single
 * pair) the mean is a difference of measured values: it reads to the decimals
 * of the values `of` it was taken between (`formatDifference`). "" for a
 * missing mean.
 */
export function estimateCells(
  mean: number | null,
  interval: ImprovementInterval | null,
  of: readonly number[] = [],
): EstimateCells {
  if (mean === null) return { mean: "", interval: "" };
  if (interval === null) return { mean: formatDifference(mean, of, true), interval: "" };
  const t = formatEstimate({ mean, lower: interval.lower, upper: interval.upper }, true);
  return { mean: t.mean, interval: `[${t.lower}, ${t.upper}] ${formatPercent(interval.confidence)}` };
}

/** The benchmark's two values a single pair's difference was taken between. */
function valuesOf(run: RunSummary): number[] {
  const v = benchmarkValues(run);
  return [v.baseline, v.candidate].filter((x): x is number => x !== null);
}

/** The run's improvement (positive = better) and its interval, as text; blanks until decided. */
export function improvementCells(run: RunSummary): EstimateCells {
  const e = run.improvement;
  return estimateCells(e?.mean ?? null, e?.interval ?? null, valuesOf(run));
}

/** The run's mean difference (candidate − baseline) and its difference interval, as text; blanks until decided. */
export function differenceCells(run: RunSummary): EstimateCells {
  return estimateCells(run.difference, differenceInterval(run), valuesOf(run));
}

/** How many pairs the run's verdict rests on, as text; "" until decided. */
export function pairsCell(run: RunSummary): string {
  return run.improvement ? String(run.improvement.n) : "";
}

/**
 * A timestamp as `YYYY-MM-DD HH:MM` in UTC: short, sortable and the same on
 * every machine. An unreadable one is shown as given.
 */
export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 16).replace("T", " ");
}

/** The backend a run's jobs ran on, as a person names it. */
export function backendWords(backend: RunSummary["backend"]): string {
  return backend === "slurm" ? "Slurm" : backend === "sge" ? "Grid Engine" : "local";
}

/** The key of one climbed quantity: the benchmark's name with its metric and direction (a chart never mixes two). */
export function metricKey(run: RunSummary): string {
  return JSON.stringify([run.benchmark, run.metric, run.direction]);
}

/** Whether the runs measure more than one quantity (benchmark, metric and direction): tables then name it per row. */
export function severalMetrics(runs: readonly RunSummary[]): boolean {
  return new Set(runs.map(metricKey)).size > 1;
}

/** A run's benchmark as a table names it when a climb has several: `pi: score`. */
export function benchmarkLabel(run: RunSummary): string {
  return `${run.benchmark}: ${metricText(run)}`;
}

/** The metric with its unit when the contract gives one: `t in ms`, `val_bpb in bpb`; else the metric alone. */
export function metricText(run: Pick<RunSummary, "metric" | "unit">): string {
  return run.unit === null ? run.metric : `${run.metric} in ${run.unit}`;
}

/** Which way is better, in words: "higher is better" / "lower is better". */
export function betterWords(direction: RunSummary["direction"]): string {
  return direction === "maximize" ? "higher is better" : "lower is better";
}

/**
 * The verdict, or the state when there is none yet: `accept`, `parked`,
 * `calibrated`, `failed`, …. A verdict that does not follow from the run's
 * results (`disputes`) is never shown as fact: `accept (disputed)`.
 */
export function outcome(run: RunSummary): string {
  if (run.verdict === null) return run.state;
  return run.disputes.length > 0 ? `${run.verdict} (disputed)` : run.verdict;
}

/**
 * The verdict (or state) with what a reader needs beside it: a crashed
 * candidate's cause (`crashed: eval exited with code 1`), else `outcome`.
 */
export function verdictWords(run: RunSummary): string {
  return run.verdict === "crashed" ? crashWords(run.crash) : outcome(run);
}

/** `crashed: <cause>`, or `crashed` when the cause is unknown. */
function crashWords(crash: CrashSummary | null | undefined): string {
  return crash === null || crash === undefined || crash.cause === "" ? "crashed" : `crashed: ${crash.cause}`;
}

/** A round candidate's verdict for a table: a crash with its cause, else the verdict; `none` while it has none. */
export function armVerdictWords(a: RoundArm, none = ""): string {
  return a.verdict === "crashed" ? crashWords(a.crash) : a.verdict ?? none;
}

/** min_effect as the contract writes it: `0.5` in the metric's units, `2%` relative. */
export function minEffectText(run: Pick<RunSummary, "minEffectWritten">): string {
  const m = run.minEffectWritten;
  return typeof m === "string" ? m : formatMeasured(m);
}

/** A relative min_effect as written (`"2%"`), for a chart's label; undefined for one in the metric's units. */
export function relativeMinEffect(run: Pick<RunSummary, "minEffectWritten">): string | undefined {
  return typeof run.minEffectWritten === "string" ? run.minEffectWritten : undefined;
}

/**
 * A relative estimate (the candidate / baseline ratio) as people read it.
 * Minimizing: the factor in the direction's favour and the change, in words
 * that fit the metric (verdict/relative_words.ts): a time (`unit` ms, s, …)
 * `1.13× faster [1.09, 1.19] (-11.8% time)` or `1.05× slower [1.02, 1.08]
 * (+5.0% time)`; anything else — a loss, a size, no unit — `1.20× lower
 * [1.11, 1.29] (-16.6%)` or `1.05× higher …`. Maximizing (a rate, a score):
 * the change in percent, `+16.6% [+12.3%, +21.0%]`. Digits as the interval
 * supports (`formatEstimate`); no interval for a single pair. `brief` (a
 * table's cell) leaves out the change. A pure formatter of the ratio it is
 * given; "" for none.
 */
export function formatRelative(
  r: RelativeEstimate | null | undefined,
  direction: RunSummary["direction"],
  unit: string | null,
  brief = false,
): string {
  if (r === null || r === undefined || !(r.mean > 0)) return "";
  const ends = r.lower !== null && r.upper !== null && r.lower > 0 && r.upper > 0 ? [r.lower, r.upper] as const : null;
  const percent = (x: number) => (x - 1) * 100;
  const pct = ratioEstimate(percent(r.mean), ends && [percent(ends[0]), percent(ends[1])], 1, true, 0);
  if (direction === "maximize") return ends === null ? `${pct.mean}%` : `${pct.mean}% [${pct.lower}%, ${pct.upper}%]`;
  const better = r.mean <= 1;
  // better: the factor baseline / candidate (its interval's ends swap); worse: the ratio itself
  const f = (x: number) => (better ? 1 / x : x);
  const factor = ratioEstimate(f(r.mean), ends && [f(ends[better ? 1 : 0]), f(ends[better ? 0 : 1])], 3, false, 1);
  const word = factorWord(direction, unit, better);
  const head = ends === null ? `${factor.mean}× ${word}` : `${factor.mean}× ${word} [${factor.lower}, ${factor.upper}]`;
  return brief ? head : `${head} (${pct.mean}%${isTimeUnit(unit) ? " time" : ""})`;
}

/**
 * A relative figure's mean and interval: the ends to the digits the
 * interval supports (`formatEstimate`), the mean to at least `least`
 * decimals (a factor `1.134`, a percentage `16.6`) and never fewer than its
 * ends; without ends, the mean alone. An end that is not `none` (no change:
 * a factor of 1, 0%) is never rounded onto it: `[0.997, 1.62]`, not
 * `[1.00, 1.62]`, so the interval shows on which side of no change it ends.
 */
function ratioEstimate(
  mean: number,
  ends: readonly [number, number] | null,
  least: number,
  signed: boolean,
  none: number,
): { mean: string; lower: string; upper: string } {
  // a change that rounds to none prints as none, unsigned: `0.0%`, never `-0.0%` (a loss no digit shows)
  const sign = (x: number, t: string) =>
    /^-[0.]+$/.test(t) ? t.slice(1) : signed && x > 0 && !/^[0.]+$/.test(t) ? `+${t}` : t;
  if (ends === null) return { mean: sign(mean, mean.toFixed(least)), lower: "", upper: "" };
  const t = formatEstimate({ mean, lower: ends[0], upper: ends[1] }, signed);
  const lower = offNone(ends[0], t.lower, none, sign);
  const upper = offNone(ends[1], t.upper, none, sign);
  const decimals = Math.max(least, places(t.lower));
  return { mean: sign(mean, mean.toFixed(decimals)), lower, upper };
}

const places = (text: string) => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;

/**
 * `text` of `x`, with up to 4 more decimals when it reads as `none` and `x`
 * is not; an end closer to `none` than that reads as it.
 */
function offNone(x: number, text: string, none: number, sign: (x: number, t: string) => string): string {
  if (x === none || Number(text) !== none) return text;
  for (let d = places(text) + 1; d <= places(text) + 4; d++) {
    if (Number(x.toFixed(d)) !== none) return sign(x, x.toFixed(d));
  }
  return text;
}

/** The run's relative figure with its level, for a facts list: `1.134× faster [1.09, 1.19] (-11.8% time), 95%`; "" for none. */
export function relativeFact(run: RunSummary): string {
  const text = formatRelative(run.relative, run.direction, run.unit);
  const level = run.relative?.confidence ?? null;
  return text === "" || level === null || run.relative?.lower === null ? text : `${text}, ${formatPercent(level)}`;
}

/** Whether any run of a climb, or any round candidate's estimate shown, has a relative figure: the tables then show a column of them. */
export function anyRelative(climb: readonly RunSummary[]): boolean {
  return climb.some((r) =>
    (r.relative ?? null) !== null || (r.round?.arms ?? []).some((a) => (shownEstimate(a)?.relative ?? null) !== null)
  );
}

/** The order a tally lists outcomes in: verdicts, then the states of runs without one. */
const TALLY_ORDER = [
  "accept",
  "reject",
  "inconclusive",
  "crashed",
  "calibrated",
  "parked",
  "measuring",
  "interrupted",
  "failed",
  "cancelled",
];

/**
 * How many runs ended (or stand) each way, `[outcome, count]` in a fixed
 * order (a disputed verdict right after its verdict), every outcome present
 * counted: "3 accept, 1 accept (disputed), 1 calibrated, 2 parked".
 */
export function tally(runs: readonly RunSummary[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(outcome(r), (counts.get(outcome(r)) ?? 0) + 1);
  const rank = (k: string) => {
    const i = TALLY_ORDER.indexOf(k.replace(/ \(disputed\)$/, ""));
    return (i < 0 ? TALLY_ORDER.length : i) * 2 + (k.endsWith(" (disputed)") ? 1 : 0);
  };
  return [...counts.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : 1));
}

/** A round candidate's estimate (its improvement, positive = better) as text: mean and interval, "" for none. */
export function armCells(e: ArmEstimate | null): EstimateCells {
  if (e === null) return { mean: "", interval: "" };
  const of = [e.baseline, e.candidate].filter((x): x is number => x !== null);
  return estimateCells(e.estimate.mean, e.estimate.interval, of);
}

/** A round candidate's estimate as a difference (candidate − baseline): mean and interval through the direction. */
export function armDifferenceCells(e: ArmEstimate | null, direction: RunSummary["direction"]): EstimateCells {
  if (e === null) return { mean: "", interval: "" };
  const of = [e.baseline, e.candidate].filter((x): x is number => x !== null);
  return estimateCells(e.difference, armDifferenceInterval(e, direction), of);
}

/**
 * A round candidate's estimate in one line: `+2 [+1.5, +2.5] 97.5%, n = 4
 * (pairs 3–6)`; one pair has no interval: `+0.1, n = 1 (pair 1)`.
 */
export function armEstimateText(e: ArmEstimate): string {
  const c = armCells(e);
  return `${[c.mean, c.interval].filter((t) => t !== "").join(" ")}, n = ${e.estimate.n} (${
    pairRange(e.firstPair, e.lastPair)
  })`;
}
