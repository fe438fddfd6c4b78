import { formatSigned } from "./format.ts";
import { labelAnchor, labelWidth, type PlotArea, px, type ThresholdLine } from "./layout.ts";
import { svgLine, svgText } from "./svg_axes.ts";
import { COLORS } from "./svg_marks.ts";

/**
 * The min_effect threshold as every difference chart draws it: a dashed
 * green line labelled with its value, and the side of it that accepts shaded
 * faintly green — so "did it clear the bar?" is answered by where a marker
 * sits, without reading a number.
 */

const DASH = { "stroke-width": 2, "stroke-dasharray": "6 4", class: "min-effect" } as const;

/**
 * The shading, the line and its label across the whole plot area: a vertical
 * line when differences run along x (`axis: "x"`), a horizontal one when
 * they run up the y axis. `relative`: a relative min_effect as written
 * (`"2%"`), which the label gives beside the value it is drawn at. Draw it under the axes so grid lines stay visible.
 * `avoid`: the boxes of the chart's marks (on a horizontal line), which the label keeps clear of (`labelSpot`).
 */
export function thresholdMarks(
  line: ThresholdLine,
  area: PlotArea,
  axis: "x" | "y",
  relative?: string,
  avoid: readonly Box[] = [],
): { shade: string; line: string } {
  const [a0, a1] = line.accept;
  // a relative min_effect ("2%") sits at the baseline's mean: say both, the written one first
  const label = relative === undefined
    ? `min_effect ${formatSigned(line.value)}`
    : `min_effect ${relative} ≈ ${formatSigned(Number(line.value.toPrecision(3)))}`;
  const shadeRect = axis === "x"
    ? { x: a0, y: area.top, w: a1 - a0, h: area.bottom - area.top }
    : { x: area.left, y: a0, w: area.right - area.left, h: a1 - a0 };
  const shade = `<rect class="accept-side" x="${px(shadeRect.x)}" y="${px(shadeRect.y)}" width="${px(shadeRect.w)}" ` +
    `height="${px(shadeRect.h)}" fill="${COLORS.accept}" fill-opacity="0.08"/>`;
  const text = { color: COLORS.accept, weight: "bold" } as const;
  if (axis === "x") {
    const prefer = a0 < line.position ? "end" : "start"; // run the label over the accepting side
    return {
      shade,
      line: svgLine(line.position, area.top - 6, line.position, area.bottom, COLORS.accept, DASH) +
        svgText(line.position, area.top - 10, label, {
          ...text,
          anchor: labelAnchor(line.position, label, area.left, area.right, prefer),
        }),
    };
  }
  const spot = labelSpot(label, line.position, area, a0 < line.position, avoid);
  return {
    shade,
    line: svgLine(area.left, line.position, area.right, line.position, COLORS.accept, DASH) +
      svgText(spot.x, spot.y, label, { ...text, anchor: "end", cls: "min-effect-label" }),
  };
}

/** A rectangle in pixels: a mark's extent, or a label's. */
export interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The box of a 12 px label whose baseline is at `y` and which ends at `x` (`text-anchor: end`). */
export function labelBox(text: string, x: number, y: number): Box {
  return { left: x - labelWidth(text), right: x, top: y - 11, bottom: y + 3 };
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Where the label of a horizontal min_effect line at `y` goes (its end and
 * baseline): on the accepting side (`above`) at the plot's right end, as far
 * left as it must go to sit on no mark; else on the other side the same
 * way; else, when marks cover the whole line, where it was first tried — a
 * label over a point hides the point it labels the bar for.
 */
function labelSpot(text: string, y: number, area: PlotArea, above: boolean, avoid: readonly Box[]) {
  const ys = above ? [y - 6, y + 14] : [y + 14, y - 6];
  const w = labelWidth(text);
  for (const baseline of ys) {
    for (let x = area.right - 4; x - w >= area.left + 4; x -= 8) {
      if (!avoid.some((b) => overlaps(b, labelBox(text, x, baseline)))) return { x, y: baseline };
    }
  }
  return { x: area.right - 4, y: ys[0]! };
}

/** A short dashed threshold for one run, from `x0` to `x1` at height `y` (when runs' thresholds differ). */
export function thresholdTick(x0: number, x1: number, y: number): string {
  return svgLine(x0, y, x1, y, COLORS.accept, DASH);
}

/** The legend item for the threshold, as HTML. */
export const MIN_EFFECT_LEGEND = `<li><svg width="22" height="10" aria-hidden="true"><line x1="1" y1="5" x2="21" ` +
  `y2="5" stroke="${COLORS.accept}" stroke-width="2" stroke-dasharray="6 4"/></svg>` +
  `min_effect: the shaded side improves by more than it</li>`;
