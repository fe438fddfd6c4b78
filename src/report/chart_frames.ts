import { bandCenter, type PlotArea, plotArea } from "./layout.ts";
import { type LinearScale, linearScale, paddedDomain } from "./scale.ts";
import { bottomAxis, leftAxis, rowAxis } from "./svg_axes.ts";
import { niceTicks, type Ticks } from "./ticks.ts";

/**
 * The two chart frames the reports use, sized from their data: a dot plot
 * (one labelled row per item, values along a horizontal axis) for one run,
 * and a series (run number across, values up) for a climb. Each frame gives
 * the scales, where each row or run sits, and its axes as SVG, so a chart
 * only has to draw its marks.
 */

/** A frame: its size, plot area, horizontal scale and ticks, and its axes' SVG. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly area: PlotArea;
  readonly xs: LinearScale;
  readonly xTicks: Ticks;
  readonly axes: string;
}

/** A dot plot's frame: plus where each row's centre is. */
export interface RowsFrame extends Frame {
  readonly rowY: (index: number) => number;
}

/** A series' frame: plus the vertical scale. */
export interface SeriesFrame extends Frame {
  readonly ys: LinearScale;
  readonly yTicks: Ticks;
}

const ROW_HEIGHT = 30;
/** A plot area never shorter than this: one row alone would make a flat strip. */
const MIN_PLOT_HEIGHT = 60;
const CHAR_WIDTH = 7;

/** A label cut to `max` characters with an ellipsis, so one long name cannot squeeze the plot away. */
function truncate(label: string, max = 28): string {
  const chars = [...label];
  return chars.length <= max ? label : chars.slice(0, max - 1).join("") + "…";
}

/**
 * A dot plot: `labels` top to bottom, the horizontal axis covering `values`
 * and `include` (e.g. 0 and the min_effect line) with nice ticks; the left
 * margin fits the longest (truncated) label.
 */
export function rowsFrame(opts: {
  labels: readonly string[];
  rowTitle: string;
  xTitle: string;
  values: readonly number[];
  include?: readonly number[];
  width?: number;
}): RowsFrame {
  const labels = opts.labels.map((l) => truncate(l));
  const longest = Math.max(opts.rowTitle.length, ...labels.map((l) => [...l].length));
  const left = Math.min(240, Math.max(70, longest * CHAR_WIDTH + 24));
  const width = opts.width ?? 640;
  const height = 44 + Math.max(MIN_PLOT_HEIGHT, labels.length * ROW_HEIGHT) + 50;
  const area = plotArea(width, height, { left, right: 24, top: 44, bottom: 50 });
  const xTicks = niceTicks(paddedDomain(opts.values, { include: opts.include ?? [], padding: 0.08 }), 6);
  const xs = linearScale(xTicks.domain, [area.left, area.right]);
  const rowY = (i: number) => bandCenter(i, labels.length, area.top, area.bottom);
  const axes = rowAxis(labels, rowY, area, opts.rowTitle) + bottomAxis(xTicks, xs, area, opts.xTitle);
  return { width, height, area, xs, xTicks, rowY, axes };
}

/**
 * A series over `count` runs numbered 1..count across (integer ticks, half a
 * run of room at each end), the vertical axis covering `values` and `include`.
 */
export function seriesFrame(opts: {
  count: number;
  xTitle: string;
  yTitle: string;
  values: readonly number[];
  include?: readonly number[];
  width?: number;
  height?: number;
}): SeriesFrame {
  const width = opts.width ?? Math.min(1100, Math.max(640, 200 + opts.count * 18));
  const height = opts.height ?? 340;
  const area = plotArea(width, height, { left: 78, right: 24, top: 28, bottom: 52 });
  const n = Math.max(1, opts.count);
  const xTicks = niceTicks([1, n], Math.min(10, n), true);
  const xs = linearScale([0.5, n + 0.5], [area.left, area.right]);
  const yTicks = niceTicks(paddedDomain(opts.values, { include: opts.include ?? [], padding: 0.08 }), 5);
  const ys = linearScale(yTicks.domain, [area.bottom, area.top]);
  const inside = { ...xTicks, values: xTicks.values.filter((v) => v >= 1 && v <= n) };
  const axes = leftAxis(yTicks, ys, area, opts.yTitle) + bottomAxis(inside, xs, area, opts.xTitle);
  return { width, height, area, xs, xTicks: inside, ys, yTicks, axes };
}
