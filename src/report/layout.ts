import { clamp, type LinearScale } from "./scale.ts";

/**
 * Where things go on a chart, in pixels: the plot area inside the margins,
 * rows of a dot plot, data points, and the min_effect threshold with the
 * side of it that accepts. Pure arithmetic, so the geometry is tested without
 * parsing any SVG.
 */

/** The plot area's pixel bounds: x grows rightward, y downward (SVG). */
export interface PlotArea {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Margins around the plot area, for axis labels and titles. */
export interface Margins {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The plot area of a `width × height` chart with `margins`; never narrower or shorter than 1 px. */
export function plotArea(width: number, height: number, margins: Margins): PlotArea {
  const left = margins.left;
  const top = margins.top;
  return {
    left,
    top,
    right: Math.max(left + 1, width - margins.right),
    bottom: Math.max(top + 1, height - margins.bottom),
  };
}

/** The centre of row `index` (0-based) of `count` equal rows between `start` and `end`. */
export function bandCenter(index: number, count: number, start: number, end: number): number {
  const band = (end - start) / Math.max(1, count);
  return start + band * (index + 0.5);
}

/** A pixel coordinate rounded to 0.1 px: sharp enough on screen and a short SVG. */
export function px(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A data point placed on a chart. */
export interface Placed {
  readonly x: number;
  readonly y: number;
}

/**
 * Places a data point `(x, y)` through the two scales, rounded with `px` and
 * clamped into `area`, so a value off the axis still shows at its edge
 * instead of being drawn over the labels.
 */
export function placePoint(x: number, y: number, xs: LinearScale, ys: LinearScale, area: PlotArea): Placed {
  return {
    x: px(clamp(xs(x), area.left, area.right)),
    y: px(clamp(ys(y), area.top, area.bottom)),
  };
}

/** The min_effect threshold on a horizontal difference axis. */
export interface ThresholdLine {
  /** The difference at which the candidate starts to count: +min_effect, or -min_effect when minimizing. */
  readonly value: number;
  /** Its pixel position on the x axis. */
  readonly x: number;
  /** The accepting side, `[from, to]` in pixels with from ≤ to: rightward when maximizing, leftward when minimizing. */
  readonly accept: readonly [number, number];
}

/**
 * Where the min_effect line goes on an axis of candidate − baseline: an
 * improvement is positive when maximizing and negative when minimizing, so
 * the line sits at `+minEffect` or `-minEffect` and the accepting region
 * runs from it to that end of the axis.
 */
export function minEffectLine(
  direction: "maximize" | "minimize",
  minEffect: number,
  xs: LinearScale,
): ThresholdLine {
  const value = direction === "maximize" ? minEffect : -minEffect;
  const [r0, r1] = xs.range;
  const lowEnd = Math.min(r0, r1), highEnd = Math.max(r0, r1);
  const x = px(clamp(xs(value), lowEnd, highEnd));
  const towardHigh = (direction === "maximize") === (r1 >= r0);
  return { value, x, accept: towardHigh ? [x, px(highEnd)] : [px(lowEnd), x] };
}
