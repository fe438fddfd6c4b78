import { seriesFrame } from "./chart_frames.ts";
import { improvementCells, outcome } from "./format.ts";
import type { NumberedRun } from "./html_climb_values.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { improvementLine, placePoint } from "./layout.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { candidateMark, COLORS, legendHtml, marker } from "./svg_marks.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks, thresholdTick } from "./svg_threshold.ts";
import { formatMeasured } from "../text/numbers.ts";

/**
 * A climb's "improvement per run" chart for one benchmark and metric: each
 * run's **improvement** (positive = better, whatever the direction: the
 * estimate its verdict rests on) marked by its verdict, with its interval
 * where it has one, against zero and min_effect — above zero, one dashed
 * line with the side above it shaded when every run shares it, else a short
 * dashed tick at each run. Higher on this chart is always better.
 */

/** The chart beside its table; `count` is the number of runs in the whole climb (run numbers run 1..count). */
export function climbImprovementFigure(runs: readonly NumberedRun[], count: number, id: string): string {
  const first = runs[0]?.run;
  const metric = first?.metric ?? "";
  const rows = runs.map((r) => ({
    ...r,
    mean: r.run.improvement?.mean ?? null,
    iv: r.run.improvement?.interval ?? null,
  }));
  const shared = new Set(runs.map((r) => r.run.minEffect)).size === 1 ? first : undefined;
  const f = seriesFrame({
    count,
    height: 260,
    xTitle: "run (oldest first)",
    yTitle: `${metric}: improvement (positive = better)`,
    values: rows.flatMap((r) => [r.mean, r.iv?.lower ?? null, r.iv?.upper ?? null]).filter((v): v is number =>
      v !== null
    ),
    include: [0, ...runs.map((r) => r.run.minEffect)],
  });
  const { area, xs, ys } = f;
  const threshold = shared ? thresholdMarks(improvementLine(shared.minEffect, ys), area, "y") : null;
  const parts = [threshold?.shade ?? "", f.axes];
  parts.push(
    svgLine(area.left, ys(0), area.right, ys(0), "#57606a", { "stroke-width": 1.5, class: "zero" }),
    threshold?.line ?? "",
  );
  for (const r of rows) {
    if (!shared) parts.push(thresholdTick(xs(r.number - 0.35), xs(r.number + 0.35), ys(r.run.minEffect)));
    if (r.iv !== null) {
      const [lo, hi] = [placePoint(r.number, r.iv.lower, xs, ys, area), placePoint(r.number, r.iv.upper, xs, ys, area)];
      parts.push(svgLine(lo.x, lo.y, hi.x, hi.y, COLORS.ink, { "stroke-width": 1.5 }));
      for (const end of [lo, hi]) parts.push(svgLine(end.x - 4, end.y, end.x + 4, end.y, COLORS.ink));
    }
    if (r.mean === null) continue;
    const p = placePoint(r.number, r.mean, xs, ys, area);
    const cells = improvementCells(r.run);
    const tip = `run ${r.number} (${r.run.tag}): improvement ${cells.mean}` +
      (r.iv ? `, ${cells.interval}, n = ${r.run.improvement?.n}` : "") + `, ${outcome(r.run)}`;
    const extra = {
      "data-point": "improvement",
      "data-value": r.mean,
      "data-run": r.run.tag,
      "data-verdict": outcome(r.run),
    };
    parts.push(marker(candidateMark(r.run.verdict), p.x, p.y, extra, tip));
  }
  const desc = `The improvement of ${metric} (positive = better) for each run, with its interval where the run ` +
    `has one; the dashed ${shared ? "line is" : "ticks are"} min_effect, above zero.`;
  const title = `${first?.benchmark ?? ""}: improvement per run (positive = better)`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "run" }, num("improvement"), { text: "improvement interval" }, num("n"), num("min_effect")];
  const table = dataTable(
    title,
    header,
    rows.map((r) => {
      const cells = improvementCells(r.run);
      return [
        { text: String(r.number) },
        num(cells.mean),
        { text: cells.interval, wrap: "words" },
        num(r.run.improvement ? String(r.run.improvement.n) : ""),
        num(formatMeasured(r.run.minEffect, true)),
      ];
    }),
  );
  return figure(svg, f.width, table, legendHtml(["accept", "reject", "inconclusive", "open"], [MIN_EFFECT_LEGEND]));
}
