import type { Direction } from "../stats/improvement.ts";
import type { RelativeEstimate } from "../stats/relative.ts";

/**
 * How a person reads a relative figure (src/stats/relative.ts), in the two
 * forms timing tools print: a factor in the direction's favour, as
 * hyperfine's "1.13 times faster" and pyperf's "1.15x faster", and the
 * metric's own change in percent, as asv's ratio and Google Benchmark's
 * compare.py.
 *
 * What the ratio r = cand/base means depends on the direction, so the words
 * do too. The factor is the favourable ratio: base/cand for a minimized
 * metric (a time: 0.882 of the time is 1.134× faster), cand/base for a
 * maximized one (a rate: 1.134 times the rate is 1.134× faster) — one text
 * for t and 1/t of one benchmark. Below 1 it is turned round and named the
 * other way (1.05× slower), the interval with it. The change is r − 1 of the
 * metric itself: −11.8% of the time, +13.4% of the rate; it differs between t
 * and 1/t because the metrics do.
 *
 * Faster and slower are for a time only: a metric whose contract gives a
 * time `unit` (`isTimeUnit`: ns, us, µs, ms, s, sec, min, h). Any other
 * metric — a loss, a size, a score, or one without a unit — reads lower or
 * higher, the way its value moved (a loss 0.833 of the baseline's is
 * `1.200× lower`, `-16.6%`), never `faster` nor `time`.
 */

/** The units that are a time: a metric in one reads faster / slower. */
const TIME_UNITS: ReadonlySet<string> = new Set(["ns", "us", "µs", "μs", "ms", "s", "sec", "min", "h"]);

/** Whether `unit` (a contract's `unit`, null when it has none) is a time. */
export function isTimeUnit(unit: string | null): boolean {
  return unit !== null && TIME_UNITS.has(unit);
}

/**
 * The word of a factor in the direction's favour (`better`) or against it:
 * faster / slower for a time; otherwise the way the metric's value moved,
 * lower / higher.
 */
export function factorWord(direction: Direction, unit: string | null, better: boolean): string {
  if (isTimeUnit(unit)) return better ? "faster" : "slower";
  return (direction === "minimize") === better ? "lower" : "higher";
}

/** The two forms. */
export interface RelativeWords {
  /** `1.134× faster [1.08, 1.19]`; `1.050× slower [1.02, 1.08]`; a loss `1.200× lower`; one pair: no brackets. */
  readonly factor: string;
  /** `-11.8% time [-15.0%, -8.6%]` (minimized, timing); `+13.4% [+8.0%, +19.0%]`; one pair: no brackets. */
  readonly change: string;
}

/** What the factor's words say: faster / slower for a time unit, else lower / higher of the metric. */
export interface RelativeWordsOptions {
  /** The contract's unit; null (the default) reads lower / higher. */
  readonly unit?: string | null;
}

function percent(x: number): string {
  const t = (x * 100).toFixed(1);
  const text = /^-0\.0$/.test(t) ? "0.0" : t;
  return `${x > 0 && text !== "0.0" ? "+" : ""}${text}%`;
}

/** The factor and change words of `rel` for a metric of `direction`. */
export function relativeWords(
  rel: RelativeEstimate,
  direction: Direction,
  options: RelativeWordsOptions = {},
): RelativeWords {
  const unit = options.unit ?? null;
  const point = rel.n === 1 || (rel.lower === rel.mean && rel.upper === rel.mean);
  // the favourable factor and its interval, lowest first
  const [f, lo, hi] = direction === "minimize"
    ? [1 / rel.mean, 1 / rel.upper, 1 / rel.lower]
    : [rel.mean, rel.lower, rel.upper];
  const better = f >= 1;
  const [shown, a, b] = better ? [f, lo, hi] : [1 / f, 1 / hi, 1 / lo];
  const word = factorWord(direction, unit, better);
  const factor = `${shown.toFixed(3)}× ${word}` + (point ? "" : ` [${a.toFixed(2)}, ${b.toFixed(2)}]`);
  const noun = isTimeUnit(unit) && direction === "minimize" ? " time" : "";
  const change = `${percent(rel.mean - 1)}${noun}` +
    (point ? "" : ` [${percent(rel.lower - 1)}, ${percent(rel.upper - 1)}]`);
  return { factor, change };
}
