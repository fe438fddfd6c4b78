import { seriesFrame } from "./chart_frames.ts";
import { betterWords, formatValue, metricText, outcome, verdictWords } from "./format.ts";
import { type Cell, dataTable, figure, tagCell } from "./html_page.ts";
import { placePoint, px } from "./layout.ts";
import { benchmarkValues, type RunSummary } from "./model.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { candidateMark, COLORS, CRASH_EDGE_INSET, CRASH_EDGE_LEGEND, legendHtml, marker } from "./svg_marks.ts";
import { roundVerdictWords } from "./round_words.ts";

/**
 * A climb's "over the climb" chart for one benchmark: each run's baseline and
 * candidate value at its run number, joined by a line, the candidate marked
 * by its verdict and the accepted ones linked in order — the climb's progress
 * at a glance. A round shows its winner (the means over the pairs of its
 * confirmation), or without one its baseline alone. Beside it, the same
 * numbers as a table.
 */

/** One run of the climb with its number (1 = oldest) in the whole climb. */
export interface NumberedRun {
  readonly number: number;
  readonly run: RunSummary;
}

const num = (text: string): Cell => ({ text, num: true });

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
    yTitle: `${first ? metricText(first) : metric} (${better})`,
    values: points.flatMap((p) => [p.baseline, p.candidate]).filter((v): v is number => v !== null),
  });
  const at = (n: number, v: number) => placePoint(n, v, f.xs, f.ys, f.area);
  const links: string[] = [], marks: string[] = [], accepted: string[] = [];
  let crashEdge = false;
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
    } else if (p.run.verdict === "crashed") {
      // a crash before any value of the candidate still shows, on the bottom edge: no height would be true
      const x = px(f.xs(p.number)), y = px(f.area.bottom - CRASH_EDGE_INSET);
      const tip = `${who}: candidate ${verdictWords(p.run)}; no value, drawn on the bottom edge`;
      const extra = { "data-point": "crash", "data-run": p.run.tag, "data-verdict": "crashed" };
      marks.push(marker("crashed", x, y, extra, tip));
      crashEdge = true;
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
  const header = [{ text: "run" }, { text: "tag" }, num("baseline"), num("candidate"), { text: "verdict" }];
  const table = dataTable(
    title,
    header,
    points.map((p) => [
      { text: String(p.number) },
      tagCell(p.run.tag),
      num(formatValue(p.baseline)),
      num(formatValue(p.candidate)),
      { text: p.run.round === null ? verdictWords(p.run) : roundVerdictWords(p.run) || p.run.state },
    ]),
  );
  const crashed = points.some((p) => p.candidate !== null && p.run.verdict === "crashed");
  const legend = legendHtml(
    ["baseline", "accept", "reject", "inconclusive", "open", ...(crashed ? ["crashed" as const] : [])],
    [ACCEPT_LEGEND, ...(crashEdge ? [CRASH_EDGE_LEGEND] : [])],
  );
  return figure(svg, f.width, table, legend);
}
