import { rowsFrame } from "./chart_frames.ts";
import {
  betterWords,
  differenceCells,
  formatPairDifference,
  formatSigned,
  formatValue,
  metricText,
  relativeMinEffect,
} from "./format.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { minEffectLine } from "./layout.ts";
import { differenceInterval, pairDifference, type RunSummary } from "./model.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { COLORS, legendHtml, marker, type MarkKind } from "./svg_marks.ts";
import { meanOfPairs, setAsideClause } from "./set_aside.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks } from "./svg_threshold.ts";

/**
 * A run's difference chart: the benchmark's **difference** (candidate −
 * baseline, the raw sign) for each pair, their mean with its interval — the
 * improvement's interval mapped through the direction, so the mean marker
 * lies on the side of zero its pairs' dots do — zero, and the min_effect line
 * on the improving side (right when maximizing, left when minimizing) with
 * that side shaded: the picture of why the verdict fell as it did. A pair the
 * estimate set aside as outlying is a hollow dot, and the mean (the
 * decision's estimate) is that of the kept pairs, as its row says.
 */

/** One plotted difference: its row label, value, the value as printed, tooltip, and whether it was set aside. */
interface Difference {
  readonly label: string;
  readonly value: number;
  readonly text: string;
  readonly tip: string;
  /** The estimate set this pair aside as outlying: its dot is hollow, and the mean is of the others. */
  readonly aside: boolean;
}

/**
 * The benchmark's per-pair differences from `pairs`; without pairs, the
 * run's recorded difference as one row — unless the run has an interval,
 * whose mean row already shows it.
 */
function differences(run: RunSummary): Difference[] {
  const setAside = run.improvement?.setAside ?? [];
  const why = run.improvement?.setAsideWhy ?? "outlying";
  if (run.pairs.length > 0) {
    return run.pairs.map((p, i) => {
      const value = pairDifference(run, i + 1) ?? Number.NaN;
      const text = formatPairDifference(value, p.baseline, p.candidate);
      const aside = setAside.includes(i + 1);
      const tip = `pair ${i + 1}${aside ? ` set aside, ${why}` : ""}: ${formatValue(p.candidate)} − ` +
        `${formatValue(p.baseline)} = ${text}`;
      return { label: `pair ${i + 1}${aside ? " (set aside)" : ""}`, value, text, tip, aside };
    }).filter((d) => Number.isFinite(d.value));
  }
  const d = run.difference;
  if (differenceInterval(run) !== null || d === null || !Number.isFinite(d)) return [];
  const text = formatPairDifference(d, run.values["baseline"], run.values["candidate"]);
  return [{ label: "difference", value: d, text, tip: `candidate − baseline = ${text}`, aside: false }];
}

/** The difference chart beside its table, or null when the run has no difference yet. */
export function differenceFigure(run: RunSummary, id: string): string | null {
  const diffs = differences(run);
  const iv = differenceInterval(run);
  const mean = iv === null ? null : run.difference;
  if (diffs.length === 0 && (iv === null || mean === null)) return null;
  const threshold = run.direction === "maximize" ? run.minEffect : -run.minEffect;
  const f = rowsFrame({
    labels: [...diffs.map((d) => d.label), ...(iv ? ["mean"] : [])],
    rowTitle: "pair",
    xTitle: `${metricText(run)}: difference, candidate − baseline (${betterWords(run.direction)})`,
    values: [...diffs.map((d) => d.value), ...(iv && mean !== null ? [iv.lower, iv.upper, mean] : [])],
    include: [0, threshold],
  });
  const { area, xs } = f;
  const line = minEffectLine(run.direction, run.minEffect, xs);
  const marks = thresholdMarks(line, area, "x", relativeMinEffect(run));
  const parts = [
    marks.shade,
    f.axes,
    svgLine(xs(0), area.top, xs(0), area.bottom, "#57606a", { "stroke-width": 1.5, class: "zero" }),
  ];
  parts.push(marks.line);
  diffs.forEach((d, i) => {
    const extra = { "data-point": "pair", "data-value": d.value, "data-set-aside": d.aside ? "true" : undefined };
    parts.push(marker(d.aside ? "aside" : "pair", xs(d.value), f.rowY(i), extra, d.tip));
  });
  const cells = differenceCells(run);
  const n = run.improvement?.n ?? diffs.length;
  const setAside = run.improvement?.setAside ?? [];
  const meanOf = meanOfPairs(n, setAside);
  if (iv !== null && mean !== null) {
    const y = f.rowY(diffs.length);
    const ends = { "data-lower": iv.lower, "data-upper": iv.upper };
    parts.push(
      svgLine(xs(iv.lower), y, xs(iv.upper), y, COLORS.ink, { "stroke-width": 2, class: "interval", ...ends }),
    );
    for (const end of [iv.lower, iv.upper]) parts.push(svgLine(xs(end), y - 6, xs(end), y + 6, COLORS.ink));
    const tip = `mean difference ${cells.mean} (${meanOf}), interval ${cells.interval}`;
    parts.push(marker("mean", xs(mean), y, { "data-point": "mean", "data-value": mean }, tip));
  }
  const aside = setAside.length === 0
    ? ""
    : `; ${setAsideClause(setAside, run.improvement?.setAsideWhy)} (a hollow dot)`;
  const desc = `The difference, candidate minus baseline, of ${run.metric} for ${diffs.length} pair(s)${aside}` +
    (iv ? `, and the ${meanOf.replace(/;.*/, "")}, ${cells.mean}, with the interval ${cells.interval}` : "") +
    `. The dashed line is min_effect at ${formatSigned(line.value)}, on the improving side of zero ` +
    `(${betterWords(run.direction)}); the shaded side of it improves by more.`;
  const title = "Difference: candidate − baseline";
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const rows: Cell[][] = diffs.map((
    d,
  ) => [{ text: d.label }, { text: d.text, num: true }, { text: "" }]);
  if (iv) {
    rows.push([{ text: meanOf }, { text: cells.mean, num: true }, {
      text: cells.interval,
      wrap: "words",
    }]);
  }
  const header = [{ text: "pair" }, { text: "difference (candidate − baseline)", num: true }, { text: "interval" }];
  const table = dataTable(title, header, rows);
  const kinds: MarkKind[] = [
    "pair",
    ...(diffs.some((d) => d.aside) ? ["aside" as const] : []),
    ...(iv ? ["mean" as const] : []),
  ];
  return figure(svg, f.width, table, legendHtml(kinds, [MIN_EFFECT_LEGEND]));
}
