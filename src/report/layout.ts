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

/** The min_effect threshold on an axis of differences or of improvements. */
export interface ThresholdLine {
  /** The difference at which the candidate starts to count: +min_effect, or -min_effect when minimizing. */
  readonly value: number;
  /** Its pixel position along the axis (an x on a horizontal axis, a y on a vertical one). */
  readonly position: number;
  /** The accepting side, `[from, to]` in pixels with from ≤ to: rightward when maximizing, leftward when minimizing. */
  readonly accept: readonly [number, number];
}

/**
 * Where the min_effect line goes on an axis of candidate − baseline: an
 * improvement is positive when maximizing and negative when minimizing, so
 * the line sits at `+minEffect` or `-minEffect` and the accepting region
 * runs from it to that end of the axis. Works on either axis: on a vertical
 * one (range from bottom to top) the accepting side of a maximized metric is
 * above the line.
 */
export function minEffectLine(
  direction: "maximize" | "minimize",
  minEffect: number,
  scale: LinearScale,
): ThresholdLine {
  const value = direction === "maximize" ? minEffect : -minEffect;
  const [r0, r1] = scale.range;
  const lowEnd = Math.min(r0, r1), highEnd = Math.max(r0, r1);
  const position = px(clamp(scale(value), lowEnd, highEnd));
  const towardHigh = (direction === "maximize") === (r1 >= r0);
  return { value, position, accept: towardHigh ? [position, px(highEnd)] : [px(lowEnd), position] };
}

/**
 * Where the min_effect line goes on an axis of improvements (positive =
 * better, whatever the direction): at `+minEffect`, the accepting side above
 * it (towards higher improvements).
 */
export function improvementLine(minEffect: number, scale: LinearScale): ThresholdLine {
  return minEffectLine("maximize", minEffect, scale);
}

/** Roughly how wide a 12 px label is: about 7 px a character. */
export function labelWidth(text: string): number {
  return [...text].length * 7;
}

/**
 * Which way a label at `x` should run so it stays inside `[left, right]`:
 * `prefer` when it fits that way, else the other way ("start" runs rightward
 * from x, "end" leftward).
 */
export function labelAnchor(x: number, text: string, left: number, right: number, prefer: "start" | "end") {
  const w = labelWidth(text);
  if (prefer === "start") return x + w <= right || x - w < left ? "start" : "end";
  return x - w >= left || x + w > right ? "end" : "start";
}
