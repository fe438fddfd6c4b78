import { attrs, escapeHtml } from "./html_escape.ts";
import { labelWidth, type PlotArea, px } from "./layout.ts";
import type { LinearScale } from "./scale.ts";
import { formatTick, type Ticks } from "./ticks.ts";

/**
 * The frame of every chart: the accessible `<svg>` element (role, title,
 * description), grid lines with tick labels, axis titles and row labels.
 * Colours are attributes (see `svg_marks.ts`); fonts come from the page.
 */

/** What a chart says about itself to a screen reader and as its tooltip. */
export interface ChartShell {
  /** A unique id; the `<title>` and `<desc>` get `<id>-title` and `<id>-desc`. */
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  /** What the chart shows, in a sentence or two. */
  readonly desc: string;
}

const GRID = "#d8dee4";
const INK = "#24292f";
const MUTED = "#57606a";

/**
 * The `<svg>` element around `body`: `role="img"`, `aria-labelledby` naming
 * its `<title>` and `<desc>`, a viewBox so it scales with the page.
 */
export function svgChart(shell: ChartShell, body: string): string {
  const t = `${shell.id}-title`, d = `${shell.id}-desc`;
  const a = attrs({
    id: shell.id,
    role: "img",
    "aria-labelledby": `${t} ${d}`,
    viewBox: `0 0 ${shell.width} ${shell.height}`,
    width: shell.width,
    height: shell.height,
    class: "chart",
  });
  return `<svg${a}><title id="${escapeHtml(t)}">${escapeHtml(shell.title)}</title>` +
    `<desc id="${escapeHtml(d)}">${escapeHtml(shell.desc)}</desc>${body}</svg>`;
}

/** Text at `(x, y)`, escaped; `anchor` start|middle|end; `rotate` turns it about its anchor point. */
export function svgText(
  x: number,
  y: number,
  text: string,
  opts: {
    anchor?: "start" | "middle" | "end";
    color?: string;
    weight?: "bold";
    rotate?: number;
    size?: number;
    cls?: string;
  } = {},
): string {
  const a = attrs({
    class: opts.cls,
    x: px(x),
    y: px(y),
    "text-anchor": opts.anchor ?? "start",
    fill: opts.color ?? INK,
    "font-weight": opts.weight,
    "font-size": opts.size,
    transform: opts.rotate === undefined ? undefined : `rotate(${opts.rotate} ${px(x)} ${px(y)})`,
  });
  return `<text${a}>${escapeHtml(text)}</text>`;
}

/** A straight line, with optional extra attributes (dashes, class). */
export function svgLine(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  stroke: string,
  extra: Readonly<Record<string, string | number | undefined>> = {},
): string {
  return `<line${attrs({ x1: px(x1), y1: px(y1), x2: px(x2), y2: px(y2), stroke, ...extra })}/>`;
}

/**
 * The horizontal axis: a vertical grid line and a label at each tick, the
 * axis line along the bottom of `area`, and the axis title centred below.
 */
export function bottomAxis(ticks: Ticks, xs: LinearScale, area: PlotArea, title: string): string {
  const parts = ticks.values.map((v) => {
    const x = xs(v);
    return svgLine(x, area.top, x, area.bottom, GRID) +
      svgText(x, area.bottom + 16, formatTick(v, ticks.step), { anchor: "middle", color: MUTED });
  });
  parts.push(svgLine(area.left, area.bottom, area.right, area.bottom, MUTED));
  parts.push(svgText((area.left + area.right) / 2, area.bottom + 36, title, { anchor: "middle" }));
  return `<g class="axis x-axis">${parts.join("")}</g>`;
}

/**
 * The vertical axis: a horizontal grid line and a label at each tick, the
 * axis line along the left of `area`, and the title turned upright beside it.
 */
export function leftAxis(ticks: Ticks, ys: LinearScale, area: PlotArea, title: string): string {
  const parts = ticks.values.map((v) => {
    const y = ys(v);
    return svgLine(area.left, y, area.right, y, GRID) +
      svgText(area.left - 8, y + 4, formatTick(v, ticks.step), { anchor: "end", color: MUTED });
  });
  parts.push(svgLine(area.left, area.top, area.left, area.bottom, MUTED));
  parts.push(yTitle(title, area));
  return `<g class="axis y-axis">${parts.join("")}</g>`;
}

/**
 * The vertical axis's title: turned upright beside the axis when it fits the
 * plot's height, else (a long metric name on a short chart) along the top,
 * above the plot, where the chart's whole width is free — never cut by the
 * chart's edge.
 */
function yTitle(title: string, area: PlotArea): string {
  const room = area.bottom - area.top + 2 * Math.min(area.top, 20);
  if (labelWidth(title) <= room) {
    return svgText(16, (area.top + area.bottom) / 2, title, { anchor: "middle", rotate: -90, cls: "y-title" });
  }
  return svgText(4, Math.max(12, area.top - 12), title, { cls: "y-title" });
}

/**
 * Row labels of a dot plot, right-aligned against the plot area, with the
 * title of that axis above them and a faint line under each row.
 */
export function rowAxis(labels: readonly string[], rowY: (i: number) => number, area: PlotArea, title: string) {
  const parts = labels.map((label, i) =>
    svgText(area.left - 10, rowY(i) + 4, label, { anchor: "end" }) +
    svgLine(area.left, rowY(i), area.right, rowY(i), "#eef1f4")
  );
  parts.push(svgText(area.left - 10, area.top - 8, title, { anchor: "end", color: MUTED, weight: "bold" }));
  return `<g class="axis row-axis">${parts.join("")}</g>`;
}
