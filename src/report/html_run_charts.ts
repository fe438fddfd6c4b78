import { rowsFrame } from "./chart_frames.ts";
import { betterWords, formatInterval, formatSigned, formatValue } from "./format.ts";
import { dataTable, figure } from "./html_page.ts";
import { labelAnchor, minEffectLine, px } from "./layout.ts";
import { pairRows } from "./measures.ts";
import type { RunSummary } from "./model.ts";
import { svgChart, svgLine, svgText } from "./svg_axes.ts";
import { candidateMark, COLORS, legendHtml, marker } from "./svg_marks.ts";

/**
 * The two charts of one run. "Candidate − baseline": the benchmark's
 * difference for each pair, the mean with its interval, zero, and the
 * min_effect line with the accepting side shaded — the picture of why the
 * verdict fell as it did. "Values": each benchmark's (and sibling's) base and
 * candidate per pair, joined by a line. Each is a figure with its data table.
 */

/** The benchmark's per-pair differences: from `pairs`, else the run's recorded delta as one row. */
function differences(run: RunSummary): { label: string; value: number; tip: string }[] {
  if (run.pairs.length > 0) {
    return run.pairs.map((p, i) => ({
      label: `pair ${i + 1}`,
      value: p.candidate - p.baseline,
      tip: `pair ${i + 1}: ${formatValue(p.candidate)} − ${formatValue(p.baseline)} = ${
        formatSigned(p.candidate - p.baseline)
      }`,
    })).filter((d) => Number.isFinite(d.value));
  }
  const d = run.deltas["candidate"];
  if (run.interval !== null || d === undefined || !Number.isFinite(d)) return [];
  return [{ label: "delta", value: d, tip: `candidate − baseline = ${formatSigned(d)}` }];
}

/** The difference chart and its table, or null when the run has no difference yet. */
export function differenceFigure(run: RunSummary, id: string): string | null {
  const diffs = differences(run);
  const iv = run.interval;
  if (diffs.length === 0 && iv === null) return null;
  const labels = [...diffs.map((d) => d.label), ...(iv ? ["mean"] : [])];
  const threshold = run.direction === "maximize" ? run.minEffect : -run.minEffect;
  const f = rowsFrame({
    labels,
    rowTitle: "pair",
    xTitle: `${run.metric}: candidate − baseline (${betterWords(run.direction)})`,
    values: [...diffs.map((d) => d.value), ...(iv ? [iv.lower, iv.upper, iv.mean] : [])],
    include: [0, threshold],
  });
  const { area, xs } = f;
  const line = minEffectLine(run.direction, run.minEffect, xs);
  const [a0, a1] = line.accept;
  const thresholdLabel = `min_effect ${formatSigned(line.value)}`;
  const parts = [
    `<rect x="${a0}" y="${area.top}" width="${px(a1 - a0)}" height="${px(area.bottom - area.top)}" ` +
    `fill="${COLORS.accept}" fill-opacity="0.08"/>`,
    f.axes,
    svgLine(xs(0), area.top, xs(0), area.bottom, "#57606a", { "stroke-width": 1.5 }),
    svgLine(line.position, area.top - 6, line.position, area.bottom, COLORS.accept, {
      "stroke-width": 2,
      "stroke-dasharray": "6 4",
    }),
    svgText(line.position, area.top - 10, thresholdLabel, {
      anchor: labelAnchor(
        line.position,
        thresholdLabel,
        area.left,
        f.width,
        run.direction === "maximize" ? "start" : "end",
      ),
      color: COLORS.accept,
      weight: "bold",
    }),
  ];
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
    `. The dashed line is min_effect ${formatSigned(line.value)}; the shaded side of it accepts.`;
  const svg = svgChart({ id, width: f.width, height: f.height, title: "Candidate − baseline", desc }, parts.join(""));
  const rows = diffs.map((d) => [{ text: d.label }, { text: formatSigned(d.value), num: true }]);
  if (iv) {
    rows.push([{ text: `mean (n = ${iv.n})` }, { text: `${formatSigned(iv.mean)} ${formatInterval(iv)}`, num: true }]);
  }
  const table = dataTable("Candidate − baseline", [{ text: "pair" }, { text: "difference", num: true }], rows);
  const legend = legendHtml(iv ? ["pair", "mean"] : ["pair"], [
    `<li><svg width="22" height="10" aria-hidden="true"><line x1="1" y1="5" x2="21" y2="5" stroke="${COLORS.accept}" ` +
    `stroke-width="2" stroke-dasharray="6 4"/></svg>min_effect: beyond it, on the shaded side, accepts</li>`,
  ]);
  return figure(svg, f.width, table, legend);
}

/** One value chart per benchmark (the climbed one, then each sibling): base and candidate per pair. */
export function valueFigures(run: RunSummary, idFor: (group: string) => string): string[] {
  const { rows } = pairRows(run.values, run.deltas);
  const groups = [...new Set(rows.map((r) => `${r.sibling ? "s" : "m"}:${r.group}`))];
  return groups.map((key) => {
    const sibling = key.startsWith("s:");
    const group = key.slice(2);
    const mine = rows.filter((r) => r.group === group && r.sibling === sibling && r.pair !== null);
    const name = sibling ? `sibling ${group}` : run.benchmark;
    const f = rowsFrame({
      labels: mine.map((r) => `pair ${r.pair}`),
      rowTitle: "pair",
      xTitle: sibling ? `${group} value` : `${run.metric} (${betterWords(run.direction)})`,
      values: mine.flatMap((r) => [r.base, r.candidate]).filter((v): v is number => v !== null),
    });
    const cand = sibling ? "candidate" : candidateMark(run.verdict);
    const parts = [f.axes];
    mine.forEach((r, i) => {
      const y = f.rowY(i);
      const suffix = r.pair === 1 ? "" : `#${r.pair}`;
      const [b, c] = [r.base, r.candidate];
      if (b !== null && c !== null) parts.push(svgLine(f.xs(b), y, f.xs(c), y, "#8c959f", { "stroke-width": 2 }));
      const base = sibling ? `sib-${group}-base${suffix}` : `baseline${suffix}`;
      const candidate = sibling ? `sib-${group}-cand${suffix}` : `candidate${suffix}`;
      if (b !== null) {
        parts.push(
          marker(
            "baseline",
            f.xs(b),
            y,
            { "data-point": "baseline", "data-measure": base },
            `${base} = ${formatValue(b)}`,
          ),
        );
      }
      if (c !== null) {
        parts.push(
          marker(
            cand,
            f.xs(c),
            y,
            { "data-point": "candidate", "data-measure": candidate },
            `${candidate} = ${formatValue(c)}`,
          ),
        );
      }
    });
    const desc = `${name}: the baseline and candidate value of each of ${mine.length} pair(s).`;
    const svg = svgChart(
      { id: idFor(key), width: f.width, height: f.height, title: `Values: ${name}`, desc },
      parts.join(""),
    );
    const table = dataTable(
      `Values: ${name}`,
      [{ text: "pair" }, { text: "baseline", num: true }, { text: "candidate", num: true }, {
        text: "delta",
        num: true,
      }],
      mine.map((
        r,
      ) => [{ text: String(r.pair) }, { text: formatValue(r.base), num: true }, {
        text: formatValue(r.candidate),
        num: true,
      }, { text: formatSigned(r.delta), num: true }]),
    );
    return figure(svg, f.width, table, legendHtml(["baseline", cand]));
  });
}
