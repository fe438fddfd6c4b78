import { seriesFrame } from "./chart_frames.ts";
import { betterWords, formatInterval, formatSigned, formatValue, outcome } from "./format.ts";
import { dataTable, figure } from "./html_page.ts";
import { labelAnchor, minEffectLine, placePoint, px } from "./layout.ts";
import { benchmarkDelta, benchmarkValues, type RunSummary } from "./model.ts";
import { svgChart, svgLine, svgText } from "./svg_axes.ts";
import { candidateMark, COLORS, legendHtml, marker } from "./svg_marks.ts";

/**
 * The two charts of a climb, for one benchmark. "Over the climb": each run's
 * baseline and candidate value at its run number, joined by a line, the
 * candidate marked by its verdict and the accepted ones linked, so the climb's
 * progress reads at a glance. "Candidate − baseline per run": each run's
 * difference with its interval, zero and min_effect. Each has its data table.
 */

/** One run of the climb with its number (1 = oldest) in the whole climb. */
export interface NumberedRun {
  readonly number: number;
  readonly run: RunSummary;
}

const ACCEPT_LEGEND = `<li><svg width="22" height="10" aria-hidden="true"><line x1="1" y1="5" x2="21" y2="5" ` +
  `stroke="${COLORS.accept}" stroke-width="1.5" stroke-dasharray="3 3"/></svg>accepted candidates, in order</li>`;

/** The value chart: baseline and candidate per run; `count` is the number of runs in the whole climb. */
export function climbValueFigure(runs: readonly NumberedRun[], count: number, id: string): string {
  const first = runs[0]?.run;
  const metric = first?.metric ?? "";
  const better = first ? betterWords(first.direction) : "";
  const points = runs.map((r) => ({ ...r, ...benchmarkValues(r.run) }));
  const f = seriesFrame({
    count,
    xTitle: "run (oldest first)",
    yTitle: `${metric} (${better})`,
    values: points.flatMap((p) => [p.baseline, p.candidate]).filter((v): v is number => v !== null),
  });
  const at = (n: number, v: number) => placePoint(n, v, f.xs, f.ys, f.area);
  const links: string[] = [], marks: string[] = [], accepted: string[] = [];
  for (const p of points) {
    const who = `run ${p.number} (${p.run.tag})`;
    if (p.baseline !== null && p.candidate !== null) {
      const [b, c] = [at(p.number, p.baseline), at(p.number, p.candidate)];
      links.push(svgLine(b.x, b.y, c.x, c.y, "#8c959f", { "stroke-width": 1.5 }));
    }
    if (p.baseline !== null) {
      const b = at(p.number, p.baseline);
      const tip = `${who}: baseline ${formatValue(p.baseline)}`;
      marks.push(marker("baseline", b.x, b.y, { "data-point": "baseline", "data-run": p.run.tag }, tip, 4.5));
    }
    if (p.candidate !== null) {
      const c = at(p.number, p.candidate);
      const tip = `${who}: candidate ${formatValue(p.candidate)}, ${outcome(p.run)}`;
      const extra = { "data-point": "candidate", "data-run": p.run.tag, "data-verdict": outcome(p.run) };
      marks.push(marker(candidateMark(p.run.verdict), c.x, c.y, extra, tip, p.run.verdict === "accept" ? 6 : 5));
      if (p.run.verdict === "accept") accepted.push(`${c.x},${c.y}`);
    }
  }
  const path = accepted.length > 1
    ? `<polyline points="${accepted.join(" ")}" fill="none" stroke="${COLORS.accept}" stroke-width="1.5" ` +
      `stroke-dasharray="3 3"/>`
    : "";
  const nAccepted = runs.filter((r) => r.run.verdict === "accept").length;
  const desc = `${metric} of the baseline and the candidate of each of ${runs.length} run(s), oldest first; ` +
    `${nAccepted} candidate(s) accepted.`;
  const title = `${first?.benchmark ?? ""}: ${metric} over the climb`;
  const svg = svgChart(
    { id, width: f.width, height: f.height, title, desc },
    f.axes + path + links.join("") + marks.join(""),
  );
  const table = dataTable(
    title,
    [
      { text: "run" },
      { text: "tag" },
      { text: "baseline", num: true },
      { text: "candidate", num: true },
      { text: "verdict" },
    ],
    points.map((p) => [
      { text: String(p.number) },
      { text: p.run.tag },
      { text: formatValue(p.baseline), num: true },
      { text: formatValue(p.candidate), num: true },
      { text: outcome(p.run) },
    ]),
  );
  const legend = legendHtml(["baseline", "accept", "reject", "inconclusive", "open"], [ACCEPT_LEGEND]);
  return figure(svg, f.width, table, legend);
}

/** The difference chart: each run's candidate − baseline, its interval, zero and min_effect. */
export function climbDeltaFigure(runs: readonly NumberedRun[], count: number, id: string): string {
  const first = runs[0]?.run;
  const metric = first?.metric ?? "";
  const rows = runs.map((r) => ({ ...r, delta: benchmarkDelta(r.run) }));
  const thresholds = new Set(runs.map((r) => `${r.run.direction} ${r.run.minEffect}`));
  const one = thresholds.size === 1 && first !== undefined ? first : null;
  const f = seriesFrame({
    count,
    height: 260,
    xTitle: "run (oldest first)",
    yTitle: `candidate − baseline`,
    values: rows.flatMap((r) => [r.delta, r.run.interval?.lower ?? null, r.run.interval?.upper ?? null])
      .filter((v): v is number => v !== null),
    include: [0, ...(one ? [one.direction === "maximize" ? one.minEffect : -one.minEffect] : [])],
  });
  const { area, xs, ys } = f;
  const parts = [f.axes, svgLine(area.left, ys(0), area.right, ys(0), "#57606a", { "stroke-width": 1.5 })];
  if (one) {
    const line = minEffectLine(one.direction, one.minEffect, ys);
    const [a0, a1] = line.accept;
    const label = `min_effect ${formatSigned(line.value)}`;
    parts.unshift(
      `<rect x="${area.left}" y="${a0}" width="${px(area.right - area.left)}" height="${px(a1 - a0)}" ` +
        `fill="${COLORS.accept}" fill-opacity="0.08"/>`,
    );
    parts.push(
      svgLine(area.left, line.position, area.right, line.position, COLORS.accept, {
        "stroke-width": 2,
        "stroke-dasharray": "6 4",
      }),
    );
    parts.push(svgText(area.right - 4, line.position + (one.direction === "maximize" ? -6 : 14), label, {
      anchor: labelAnchor(area.right - 4, label, area.left, area.right, "end"),
      color: COLORS.accept,
      weight: "bold",
    }));
  }
  for (const r of rows) {
    const iv = r.run.interval;
    if (iv !== null) {
      const [lo, hi] = [placePoint(r.number, iv.lower, xs, ys, area), placePoint(r.number, iv.upper, xs, ys, area)];
      parts.push(svgLine(lo.x, lo.y, hi.x, hi.y, COLORS.ink, { "stroke-width": 1.5 }));
      for (const end of [lo, hi]) parts.push(svgLine(end.x - 4, end.y, end.x + 4, end.y, COLORS.ink));
    }
    if (r.delta === null) continue;
    const p = placePoint(r.number, r.delta, xs, ys, area);
    const tip = `run ${r.number} (${r.run.tag}): ${formatSigned(r.delta)}` +
      (iv ? `, ${formatInterval(iv)}, n = ${iv.n}` : "") + `, ${outcome(r.run)}`;
    const extra = { "data-point": "delta", "data-run": r.run.tag, "data-verdict": outcome(r.run) };
    parts.push(marker(candidateMark(r.run.verdict), p.x, p.y, extra, tip));
  }
  const desc = `Candidate minus baseline of ${metric} for each run, with its interval where the run has one` +
    (one ? `; the dashed line is min_effect, and the shaded side of it accepts.` : ".");
  const title = `${first?.benchmark ?? ""}: candidate − baseline per run`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const table = dataTable(
    title,
    [{ text: "run" }, { text: "delta", num: true }, { text: "interval" }, { text: "n", num: true }],
    rows.map((r) => [
      { text: String(r.number) },
      { text: formatSigned(r.delta), num: true },
      { text: r.run.interval ? formatInterval(r.run.interval) : "" },
      { text: r.run.interval ? String(r.run.interval.n) : "", num: true },
    ]),
  );
  return figure(svg, f.width, table, legendHtml(["accept", "reject", "inconclusive", "open"]));
}
