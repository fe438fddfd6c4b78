import type { Domain } from "./scale.ts";

/**
 * What a chart's value axis is scaled to when some of what it draws matters
 * less than the rest: a climb's improvement chart compares winners, accepted
 * runs and min_effect, and a dropped candidate's two-pair screen interval
 * (often a hundred times wider) must not squash them into a flat band at
 * zero. The axis covers the `core` values in full and the `soft` ones only
 * as far as `SOFT_REACH` of the core's span beyond it; what lies further is
 * drawn cut at the axis's edge with a mark (`svg_marks.ts`'s `clipMark`) and
 * its true value in the mark's tooltip.
 */

/** How far beyond the core values the axis reaches for soft ones, as a fraction of the core's span. */
export const SOFT_REACH = 0.25;

/**
 * The extent the axis must show: every finite `core` value, widened towards
 * the `soft` ones by at most `SOFT_REACH` of the core's span on each side.
 * Without core values, the soft ones' extent; without either, [].
 */
export function focusExtent(core: readonly number[], soft: readonly number[]): number[] {
  const c = core.filter(Number.isFinite), s = soft.filter(Number.isFinite);
  if (c.length === 0) return s.length === 0 ? [] : [Math.min(...s), Math.max(...s)];
  const low = Math.min(...c), high = Math.max(...c);
  const reach = (high - low || Math.abs(low) || 1) * SOFT_REACH;
  const softLow = Math.min(low, ...s), softHigh = Math.max(high, ...s);
  return [Math.max(softLow, low - reach), Math.min(softHigh, high + reach)];
}

/** An interval's ends as drawn on an axis of `domain`: each kept inside it, and whether it was cut there. */
export interface DrawnInterval {
  readonly lower: number;
  readonly upper: number;
  readonly lowerCut: boolean;
  readonly upperCut: boolean;
}

/** `[lower, upper]` cut to `domain`: an end beyond the axis is drawn at its edge, marked as cut. */
export function cutToDomain(lower: number, upper: number, domain: Domain): DrawnInterval {
  const [d0, d1] = domain;
  return {
    lower: Math.max(lower, d0),
    upper: Math.min(upper, d1),
    lowerCut: lower < d0,
    upperCut: upper > d1,
  };
}
