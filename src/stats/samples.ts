/**
 * Several samples of one measure: a benchmark may report its metric as an
 * array of timings (`{"ms": [12.1, 11.9, 30.2]}`) taken within one run. They
 * are not independent replicates of the comparison — they share the job's
 * node, checkout and warm-up, so counting them as pairs would be
 * pseudo-replication — and the measure's value is one summary of them: the
 * median by default (one stalled sample of seven cannot move it), the
 * minimum (the run least disturbed by the machine; what timeit reports) or
 * the mean (when every sample is its own fair draw).
 */

/** How a measure's samples become its value; the contract key `summary`. */
export type Summary = "median" | "min" | "mean";

/** The summaries a contract may name, the default first. */
export const SUMMARIES: readonly Summary[] = ["median", "min", "mean"];

/** The default summary: the median. */
export const DEFAULT_SUMMARY: Summary = "median";

/** The samples' spread, as `decision.json` keeps it for a measure that reported several. */
export interface SampleSpread {
  readonly n: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/** The median of sorted values: the middle one, or the mean of the middle two. */
function sortedMedian(s: readonly number[]): number {
  const m = s.length;
  if (m % 2 === 1) return s[(m - 1) / 2]!;
  const a = s[m / 2 - 1]!;
  const b = s[m / 2]!;
  return a + (b - a) / 2; // never overflows, and equal middles give exactly that value
}

/**
 * The value of `samples` (at least one, all finite) under `summary`. The
 * mean is taken about the first sample, so equal samples give exactly their
 * value (three 0.1s are 0.1) and large ones do not overflow as a plain sum can.
 */
export function summarize(samples: readonly number[], summary: Summary): number {
  if (samples.length === 0) throw new RangeError("summarize() needs at least one sample");
  if (summary === "min") return samples.reduce((a, b) => (b < a ? b : a));
  if (summary === "median") return sortedMedian([...samples].sort((a, b) => a - b));
  const x0 = samples[0]!;
  let shift = 0;
  for (const x of samples) shift += (x - x0) / samples.length;
  return x0 + shift;
}

/** The spread of `samples` (at least one): how many, the smallest, the median and the largest. */
export function sampleSpread(samples: readonly number[]): SampleSpread {
  if (samples.length === 0) throw new RangeError("sampleSpread() needs at least one sample");
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, min: s[0]!, median: sortedMedian(s), max: s[s.length - 1]! };
}
