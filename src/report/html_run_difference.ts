import { rowsFrame } from "./chart_frames.ts";
import { betterWords, formatInterval, formatSigned, formatValue } from "./format.ts";
import { dataTable, figure } from "./html_page.ts";
import { minEffectLine } from "./layout.ts";
import type { RunSummary } from "./model.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { COLORS, legendHtml, marker } from "./svg_marks.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks } from "./svg_threshold.ts";

/**
 * A run's "Candidate − baseline" chart: the benchmark's difference for each
 * pair, the mean with its interval, zero, and the min_effect line with the
 * improving side shaded — the picture of why the verdict fell as it did.
 */

/** One plotted difference: its row label, value and tooltip. */
interface Difference {
  readonly label: string;
  readonly value: number;
  readonly tip: string;
}

/**
 * The benchmark's per-pair differences from `pairs`; without pairs, the
 * run's recorded delta as one row — unless the run has an interval, whose
 * mean row already shows it.
 */
function differences(run: RunSummary): Difference[] {
  if (run.pairs.length > 0) {
    return run.pairs.map((p, i) => {
      const value = p.candidate - p.baseline;
      const tip = `pair ${i + 1}: ${formatValue(p.candidate)} − ${formatValue(p.baseline)} = ${formatSigned(value)}`;
      return { label: `pair ${i + 1}`, value, tip };
    }).filter((d) => Number.isFinite(d.value));
  }
  const d = run.deltas["candidate"];
  if (run.interval !== null || d === undefined || !Number.isFinite(d)) return [];
  return [{ label: "delta", value: d, tip: `candidate − baseline = ${formatSigned(d)}` }];
}

/** The difference chart beside its table, or null when the run has no difference yet. */
export function differenceFigure(run: RunSummary, id: string): string | null {
  const diffs = differences(run);
  const iv = run.interval;
  if (diffs.length === 0 && iv === null) return null;
  const f = rowsFrame({
    labels: [...diffs.map((d) => d.label), ...(iv ? ["mean"] : [])],
    rowTitle: "pair",
    xTitle: `${run.metric}: candidate − baseline (${betterWords(run.direction)})`,
    values: [...diffs.map((d) => d.value), ...(iv ? [iv.lower, iv.upper, iv.mean] : [])],
    include: [0, run.direction === "maximize" ? run.minEffect : -run.minEffect],
  });
  const { area, xs } = f;
  const line = minEffectLine(run.direction, run.minEffect, xs);
  const threshold = thresholdMarks(line, area, "x");
  const parts = [
    threshold.shade,
    f.axes,
    svgLine(xs(0), area.top, xs(0), area.bottom, "#57606a", { "stroke-width": 1.5 }),
  ];
  parts.push(threshold.line);
  diffs.forEach((d, i) => {
    parts.push(marker("pair", xs(d.value), f.rowY(i), { "data-point": "pair", "data-value": d.value }, d.tip));
  });
  if (iv !== null) {
    const y = f.rowY(diffs.length);
    parts.push(svgLine(xs(iv.lower), y, xs(iv.upper), y, COLORS.ink, { "stroke-width": 2 }));
    for (const end of [iv.lower, iv.upper]) parts.push(svgLine(xs(end), y - 6, xs(end), y + 6, COLORS.ink));
    const tip = `mean ${formatSigned(iv.mean)}, ${formatInterval(iv)}, n = ${iv.n}`;
    parts.push(marker("mean", xs(iv.mean), y, { "data-point": "mean", "data-value": iv.mean }, tip));
  }
  const desc = `Candidate minus baseline of ${run.metric} for ${diffs.length} pair(s)` +
    (iv ? `, and their mean ${formatSigned(iv.mean)} with the interval ${formatInterval(iv)} over ${iv.n} pairs` : "") +
    `. The dashed line is min_effect ${formatSigned(line.value)}; the shaded side of it improves by more.`;
  const title = "Candidate − baseline";
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const rows = diffs.map((d) => [{ text: d.label }, { text: formatSigned(d.value), num: true }]);
  if (iv) {
    rows.push([{ text: `mean (n = ${iv.n})` }, { text: `${formatSigned(iv.mean)} ${formatInterval(iv)}`, num: true }]);
  }
  const table = dataTable(title, [{ text: "pair" }, { text: "difference", num: true }], rows);
  return figure(svg, f.width, table, legendHtml(iv ? ["pair", "mean"] : ["pair"], [MIN_EFFECT_LEGEND]));
}
