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
 */

/** The two forms. */
export interface RelativeWords {
  /** `1.134× faster [1.08, 1.19]`; `1.050× slower [1.02, 1.08]`; one pair: `1.134× faster`. */
  readonly factor: string;
  /** `-11.8% time [-15.0%, -8.6%]` (minimized, timing); `+13.4% [+8.0%, +19.0%]`; one pair: no brackets. */
  readonly change: string;
}

/** What the factor's words say; `timing` (the default) reads faster/slower, else lower/higher of the metric. */
export interface RelativeWordsOptions {
  /** The metric is a time (minimized) or a rate (maximized); default true. */
  readonly timing?: boolean;
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
  const timing = options.timing ?? true;
  const point = rel.n === 1 || (rel.lower === rel.mean && rel.upper === rel.mean);
  // the favourable factor and its interval, lowest first
  const [f, lo, hi] = direction === "minimize"
    ? [1 / rel.mean, 1 / rel.upper, 1 / rel.lower]
    : [rel.mean, rel.lower, rel.upper];
  const better = f >= 1;
  const [shown, a, b] = better ? [f, lo, hi] : [1 / f, 1 / hi, 1 / lo];
  const word = timing
    ? (better ? "faster" : "slower")
    : direction === "minimize"
    ? (better ? "smaller" : "larger")
    : (better ? "higher" : "lower");
  const factor = `${shown.toFixed(3)}× ${word}` + (point ? "" : ` [${a.toFixed(2)}, ${b.toFixed(2)}]`);
  const noun = timing && direction === "minimize" ? " time" : "";
  const change = `${percent(rel.mean - 1)}${noun}` +
    (point ? "" : ` [${percent(rel.lower - 1)}, ${percent(rel.upper - 1)}]`);
  return { factor, change };
}
