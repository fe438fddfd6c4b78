import { formatSigned } from "./format.ts";
import { labelAnchor, type PlotArea, px, type ThresholdLine } from "./layout.ts";
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
 */
export function thresholdMarks(
  line: ThresholdLine,
  area: PlotArea,
  axis: "x" | "y",
  relative?: string,
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
  const above = a0 < line.position; // the accepting side is above the line: put the label there
  return {
    shade,
    line: svgLine(area.left, line.position, area.right, line.position, COLORS.accept, DASH) +
      svgText(area.right - 4, line.position + (above ? -6 : 14), label, { ...text, anchor: "end" }),
  };
}

/** A short dashed threshold for one run, from `x0` to `x1` at height `y` (when runs' thresholds differ). */
export function thresholdTick(x0: number, x1: number, y: number): string {
  return svgLine(x0, y, x1, y, COLORS.accept, DASH);
}

/** The legend item for the threshold, as HTML. */
export const MIN_EFFECT_LEGEND = `<li><svg width="22" height="10" aria-hidden="true"><line x1="1" y1="5" x2="21" ` +
  `y2="5" stroke="${COLORS.accept}" stroke-width="2" stroke-dasharray="6 4"/></svg>` +
  `min_effect: the shaded side improves by more than it</li>`;
