// Tested by tests/report/layout_test.ts
/**
 * Linear scales for the report's charts: a data domain mapped onto a pixel
 * range. Real data is awkward — one value, equal values, negative values,
 * 1e-9 or 1e12 — so the domain is built by `paddedDomain`, which never
 * returns a zero-width or non-finite span, and `linearScale` still copes
 * with one (it maps everything to the middle) rather than dividing by zero.
 */

/** A closed numeric interval `[low, high]`, low ≤ high. */
export type Domain = readonly [number, number];

/** A data → pixel mapping. */
export interface LinearScale {
  (value: number): number;
  readonly domain: Domain;
  /** The pixel range; `range[0]` is where `domain[0]` lands (it may be the larger number, as on a y axis). */
  readonly range: readonly [number, number];
}

/** Options for `paddedDomain`. */
export interface DomainOptions {
  /** Extra room on each side, as a fraction of the span (default 0.05). */
  readonly padding?: number;
  /** Values the domain must contain besides the data, e.g. 0 or the min_effect line. */
  readonly include?: readonly number[];
}

/**
 * The domain that shows `values`: their extent (non-finite values ignored)
 * widened by `padding` on each side. Fallbacks, so a chart always has a
 * width: no values gives `[0, 1]`; equal values `v` give `v ± 10% of |v|`
 * (`[-1, 1]` around 0), so a flat series sits in the middle of the chart.
 */
export function paddedDomain(values: readonly number[], opts: DomainOptions = {}): Domain {
  const all = [...values, ...(opts.include ?? [])].filter(Number.isFinite);
  if (all.length === 0) return [0, 1];
  let low = Math.min(...all);
  let high = Math.max(...all);
  if (low === high) {
    const half = low === 0 ? 1 : Math.abs(low) * 0.1;
    return [low - half, high + half];
  }
  const pad = (high - low) * (opts.padding ?? 0.05);
  low -= pad;
  high += pad;
  if (!Number.isFinite(low) || !Number.isFinite(high)) {
    return [Math.max(low, -Number.MAX_VALUE), Math.min(high, Number.MAX_VALUE)];
  }
  return [low, high];
}

/**
 * Maps `domain` linearly onto `range`. A zero-width domain (a caller that
 * skipped `paddedDomain`) maps every value to the middle of the range.
 */
export function linearScale(domain: Domain, range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const f = (value: number) => {
    if (!(span > 0) || !Number.isFinite(span)) return (r0 + r1) / 2;
    return r0 + ((value - d0) / span) * (r1 - r0);
  };
  return Object.assign(f, { domain, range });
}

/** `value` limited to `[low, high]`: keeps a marker inside the plot when a value lies off the axis. */
export function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, Math.min(low, high)), Math.max(low, high));
}
