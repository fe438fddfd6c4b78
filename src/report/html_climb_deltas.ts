import { seriesFrame } from "./chart_frames.ts";
import { formatInterval, formatSigned, outcome } from "./format.ts";
import type { NumberedRun } from "./html_climb_values.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { minEffectLine, placePoint } from "./layout.ts";
import { benchmarkDelta, type RunSummary } from "./model.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { candidateMark, COLORS, legendHtml, marker } from "./svg_marks.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks, thresholdTick } from "./svg_threshold.ts";

/**
 * A climb's "candidate − baseline per run" chart for one benchmark: each
 * run's difference marked by its verdict, with its interval where it has one,
 * against zero and min_effect — one dashed line with the improving side
 * shaded when every run shares it, else a short dashed tick at each run.
 */

/** The improving threshold of a run: +min_effect when maximizing, -min_effect when minimizing. */
function thresholdOf(run: RunSummary): number {
  return run.direction === "maximize" ? run.minEffect : -run.minEffect;
}

/** The chart beside its table; `count` is the number of runs in the whole climb. */
export function climbDeltaFigure(runs: readonly NumberedRun[], count: number, id: string): string {
  const first = runs[0]?.run;
  const metric = first?.metric ?? "";
  const rows = runs.map((r) => ({ ...r, delta: benchmarkDelta(r.run) }));
  const shared = new Set(runs.map((r) => `${r.run.direction} ${r.run.minEffect}`)).size === 1 ? first : undefined;
  const f = seriesFrame({
    count,
    height: 260,
    xTitle: "run (oldest first)",
    yTitle: "candidate − baseline",
    values: rows.flatMap((r) => [r.delta, r.run.interval?.lower ?? null, r.run.interval?.upper ?? null])
      .filter((v): v is number => v !== null),
    include: [0, ...runs.map((r) => thresholdOf(r.run))],
  });
  const { area, xs, ys } = f;
  const threshold = shared ? thresholdMarks(minEffectLine(shared.direction, shared.minEffect, ys), area, "y") : null;
  const parts = [threshold?.shade ?? "", f.axes];
  parts.push(svgLine(area.left, ys(0), area.right, ys(0), "#57606a", { "stroke-width": 1.5 }), threshold?.line ?? "");
  for (const r of rows) {
    if (!shared) parts.push(thresholdTick(xs(r.number - 0.35), xs(r.number + 0.35), ys(thresholdOf(r.run))));
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
  const desc = `Candidate minus baseline of ${metric} for each run, with its interval where the run has one; ` +
    `the dashed ${shared ? "line is" : "ticks are"} min_effect.`;
  const title = `${first?.benchmark ?? ""}: candidate − baseline per run`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "run" }, num("delta"), { text: "interval" }, num("n"), num("min_effect")];
  const table = dataTable(
    title,
    header,
    rows.map((r) => [
      { text: String(r.number) },
      num(formatSigned(r.delta)),
      { text: r.run.interval ? formatInterval(r.run.interval) : "" },
      num(r.run.interval ? String(r.run.interval.n) : ""),
      num(formatSigned(thresholdOf(r.run))),
    ]),
  );
  return figure(svg, f.width, table, legendHtml(["accept", "reject", "inconclusive", "open"], [MIN_EFFECT_LEGEND]));
}
