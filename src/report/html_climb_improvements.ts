import { seriesFrame } from "./chart_frames.ts";
import { armCells, armVerdictWords, formatSigned, improvementCells, outcome, verdictWords } from "./format.ts";
import { cutToDomain, focusExtent } from "./axis_focus.ts";
import type { ImprovementInterval, RunSummary } from "./model.ts";
import { shownEstimate } from "./round_model.ts";
import type { NumberedRun } from "./html_climb_values.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { improvementLine, placePoint, type PlotArea, px } from "./layout.ts";
import type { LinearScale } from "./scale.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import {
  candidateMark,
  CLIP_LEGEND,
  clipMark,
  COLORS,
  CRASH_EDGE_INSET,
  CRASH_EDGE_LEGEND,
  legendHtml,
  marker,
  type MarkKind,
} from "./svg_marks.ts";
import { type Box, MIN_EFFECT_LEGEND, thresholdMarks, thresholdTick } from "./svg_threshold.ts";
import { formatMeasured } from "../text/numbers.ts";

/**
 * A climb's "improvement per run" chart for one benchmark and metric: each
 * run's **improvement** (positive = better, whatever the direction: the
 * estimate its verdict rests on) marked by its verdict, with its interval
 * where it has one, against zero and min_effect — above zero, one dashed
 * line with the side above it shaded when every run shares it, else a short
 * dashed tick at each run. Higher on this chart is always better. A round
 * shows each candidate's improvement side by side at its run number (the one
 * shown for it: the confirmation's for the screen's choice, else the
 * screen's), the winner a green diamond and those the screen dropped greyed.
 */

/** The chart beside its table; `count` is the number of runs in the whole climb (run numbers run 1..count). */
export function climbImprovementFigure(runs: readonly NumberedRun[], count: number, id: string): string {
  const first = runs[0]?.run;
  const metric = first?.metric ?? "";
  const points = runs.flatMap(pointsOf);
  const shared = new Set(runs.map((r) => r.run.minEffect)).size === 1 ? first : undefined;
  const f = seriesFrame({
    count,
    height: 300,
    xTitle: "run (oldest first)",
    yTitle: `${metric}: improvement (positive = better)`,
    values: axisExtent(points, [0, ...runs.map((r) => r.run.minEffect)]),
  });
  const { area, xs, ys } = f;
  const line = shared ? improvementLine(shared.minEffect, ys) : null;
  const threshold = line ? thresholdMarks(line, area, "y", undefined, markBoxes(points, f)) : null;
  const parts = [threshold?.shade ?? "", f.axes];
  parts.push(
    svgLine(area.left, ys(0), area.right, ys(0), "#57606a", { "stroke-width": 1.5, class: "zero" }),
    threshold?.line ?? "",
  );
  if (!shared) {
    for (const r of runs) parts.push(thresholdTick(xs(r.number - 0.35), xs(r.number + 0.35), ys(r.run.minEffect)));
  }
  for (const p of points) {
    const greyed = p.kind === "dropped" || p.kind === "crashed";
    const ink = greyed ? COLORS.dropped : COLORS.ink;
    const g: string[] = [];
    if (p.iv !== null) {
      const cut = cutToDomain(p.iv.lower, p.iv.upper, ys.domain);
      const [lo, hi] = [placePoint(p.x, cut.lower, xs, ys, area), placePoint(p.x, cut.upper, xs, ys, area)];
      const ends = { "data-lower": p.iv.lower, "data-upper": p.iv.upper, "data-arm": p.arm ?? undefined };
      g.push(svgLine(lo.x, lo.y, hi.x, hi.y, ink, { "stroke-width": 1.5, class: "interval", ...ends }));
      const who = `${p.arm === null ? "" : `${p.measure}'s `}interval`;
      for (
        const [end, isCut, value, word] of [[lo, cut.lowerCut, p.iv.lower, "lower"], [
          hi,
          cut.upperCut,
          p.iv.upper,
          "upper",
        ]] as const
      ) {
        if (!isCut) {
          g.push(svgLine(end.x - 4, end.y, end.x + 4, end.y, ink));
          continue;
        }
        const tip = `run ${p.number}: ${who} cut at the chart's edge; its ${word} end is ${formatSigned(value)}`;
        g.push(
          clipMark(
            end.x,
            end.y,
            word === "upper" ? "up" : "down",
            ink,
            { "data-clipped": word, "data-value": value },
            tip,
          ),
        );
      }
    }
    if (p.mean !== null) {
      const [d0, d1] = ys.domain;
      const off = p.mean < d0 ? "below" : p.mean > d1 ? "above" : null;
      const at = placePoint(p.x, p.mean, xs, ys, area);
      const extra = {
        "data-point": "improvement",
        "data-value": p.mean,
        "data-run": p.run.tag,
        "data-verdict": p.verdict,
        "data-arm": p.arm ?? undefined,
        "data-winner": p.kind === "winner" ? "true" : undefined,
        "data-dropped": p.kind === "dropped" ? "true" : undefined,
        "data-clipped": off === null ? undefined : "mean",
      };
      const tip = off === null ? p.tip : `${p.tip} (off the chart, ${off} it: drawn at its edge)`;
      g.push(marker(p.kind, at.x, at.y, extra, tip, p.kind === "winner" ? 6 : 5));
    }
    if (p.mean === null && p.kind === "crashed") {
      // a crash with no estimate still shows, on the bottom edge: no height on this axis would be true
      const extra = {
        "data-point": "crash",
        "data-run": p.run.tag,
        "data-verdict": "crashed",
        "data-arm": p.arm ?? undefined,
      };
      const tip = `${p.tip}; no estimate, drawn on the bottom edge`;
      g.push(marker("crashed", px(xs(p.x)), px(area.bottom - CRASH_EDGE_INSET), extra, tip));
    }
    if (g.length > 0) parts.push(greyed ? `<g class="arm ${p.kind}" opacity="0.75">${g.join("")}</g>` : g.join(""));
  }
  const rounds = runs.some((r) => r.run.round !== null);
  const desc = `The improvement of ${metric} (positive = better) for each run, with its interval where the run ` +
    `has one${
      rounds
        ? "; a round shows each of its candidates side by side at its run number, the winner " +
          "marked and those the screen dropped greyed"
        : ""
    }; the dashed ${shared ? "line is" : "ticks are"} ` +
    `min_effect, above zero.`;
  const title = `${first?.benchmark ?? ""}: improvement per run (positive = better)`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "run" }, num("improvement"), { text: "improvement interval" }, num("n"), num("min_effect")];
  const table = dataTable(
    title,
    header,
    runs.flatMap((r) => {
      const one = r.run.round === null;
      // a crash has no improvement: its row says so and why, rather than standing blank
      const crash = one && r.run.verdict === "crashed" && r.run.improvement === null;
      const main: Cell[] = [
        { text: String(r.number), wrap: "never" },
        num(crash ? "crashed" : one ? improvementCells(r.run).mean : ""),
        { text: crash ? crashCause(verdictWords(r.run)) : one ? improvementCells(r.run).interval : "", wrap: "words" },
        num(r.run.round === null && r.run.improvement ? String(r.run.improvement.n) : ""),
        num(formatMeasured(r.run.minEffect, true)),
      ];
      const arms = (r.run.round?.arms ?? []).map((a): Cell[] => {
        const e = shownEstimate(a);
        const c = armCells(e);
        const crashed = a.verdict === "crashed";
        // a crash without an estimate says so where its improvement would be, and why beside it
        const bare = crashed && e === null;
        const mark = a.winner
          ? " (winner)"
          : bare
          ? " (crashed)"
          : crashed
          ? ` (${armVerdictWords(a)})`
          : a.standing === "dropped"
          ? " (dropped)"
          : "";
        return [
          { text: `↳ ${a.measure}${mark}`, wrap: "words" },
          num(bare ? "crashed" : c.mean),
          { text: bare ? crashCause(armVerdictWords(a)) : c.interval, wrap: "words" },
          num(e === null ? "" : String(e.estimate.n)),
          num(""),
        ];
      });
      return [main, ...arms];
    }),
  );
  const kinds: MarkKind[] = ["accept", "reject", "inconclusive", "open"];
  if (rounds) kinds.push(...(["winner", "dropped"] as const).filter((k) => points.some((p) => p.kind === k)));
  // a crash with an estimate (a round's screen on its first pairs) sits at it; one without, on the bottom edge
  if (points.some((p) => p.kind === "crashed" && p.mean !== null)) kinds.push("crashed");
  const edge = points.some((p) => p.kind === "crashed" && p.mean === null);
  const cut = parts.some((part) => part.includes('class="clipped"'));
  const more = [MIN_EFFECT_LEGEND, ...(edge ? [CRASH_EDGE_LEGEND] : []), ...(cut ? [CLIP_LEGEND] : [])];
  return figure(svg, f.width, table, legendHtml(kinds, more));
}

/** Where the chart's marks lie, in pixels: each mean's marker, each interval's line and ends, each crash on the edge. */
function markBoxes(points: readonly Point[], f: { xs: LinearScale; ys: LinearScale; area: PlotArea }): Box[] {
  const boxes: Box[] = [];
  const around = (x: number, y0: number, y1: number, r: number) => ({
    left: x - r,
    right: x + r,
    top: Math.min(y0, y1) - r,
    bottom: Math.max(y0, y1) + r,
  });
  for (const p of points) {
    if (p.iv !== null) {
      const cut = cutToDomain(p.iv.lower, p.iv.upper, f.ys.domain);
      const [lo, hi] = [placePoint(p.x, cut.lower, f.xs, f.ys, f.area), placePoint(p.x, cut.upper, f.xs, f.ys, f.area)];
      boxes.push(around(lo.x, lo.y, hi.y, 5));
    }
    if (p.mean !== null) {
      const at = placePoint(p.x, p.mean, f.xs, f.ys, f.area);
      boxes.push(around(at.x, at.y, at.y, 8));
    } else if (p.kind === "crashed") {
      const y = f.area.bottom - CRASH_EDGE_INSET;
      boxes.push(around(f.xs(p.x), y, y, 6));
    }
  }
  return boxes;
}

/**
 * The values the axis is scaled to (`axis_focus.ts`): what a person
 * compares in full — `include` (zero and min_effect), every run's and every
 * winner's mean, and the intervals of the accepted runs and the winners; the
 * rest — a dropped candidate's mean, every other interval (a screen on two
 * pairs, a run stopped early) — only as far as the focus reaches: beyond it,
 * an interval is cut at the edge with a mark and a mean drawn on the edge.
 */
function axisExtent(points: readonly Point[], include: readonly number[]): number[] {
  const core: number[] = [...include], soft: number[] = [];
  for (const p of points) {
    if (p.mean !== null) (p.kind === "dropped" || p.kind === "crashed" ? soft : core).push(p.mean);
    if (p.iv !== null) (p.kind === "accept" || p.kind === "winner" ? core : soft).push(p.iv.lower, p.iv.upper);
  }
  return focusExtent(core, soft);
}

/** One improvement drawn on the chart: a run's, or one candidate's of a round, beside its siblings in the round. */
interface Point {
  readonly run: RunSummary;
  /** The run's number in the climb. */
  readonly number: number;
  /** A round's candidate's measure name; "" for a run of one. */
  readonly measure: string;
  /** Where along the run axis: the run's number, a round's candidate offset from it. */
  readonly x: number;
  readonly mean: number | null;
  readonly iv: ImprovementInterval | null;
  readonly kind: MarkKind;
  readonly verdict: string;
  /** A round's candidate's arm; null for a run of one. */
  readonly arm: number | null;
  readonly tip: string;
}

/** A run's points: its improvement, or a round's candidates' side by side, arm 1 leftmost. */
function pointsOf(r: NumberedRun): Point[] {
  const round = r.run.round;
  if (round === null) {
    const cells = improvementCells(r.run);
    const iv = r.run.improvement?.interval ?? null;
    const tip = `run ${r.number} (${r.run.tag}): improvement ${cells.mean}` +
      (iv ? `, ${cells.interval}, n = ${r.run.improvement?.n}` : "") + `, ${verdictWords(r.run)}`;
    return [{
      run: r.run,
      number: r.number,
      measure: "",
      x: r.number,
      mean: r.run.improvement?.mean ?? null,
      iv,
      kind: candidateMark(r.run.verdict),
      verdict: outcome(r.run),
      arm: null,
      tip,
    }];
  }
  const k = round.arms.length;
  const step = Math.min(0.2, 0.7 / k);
  return round.arms.map((a, i) => {
    const e = shownEstimate(a);
    const cells = armCells(e);
    const kind: MarkKind = a.winner
      ? "winner"
      : a.verdict === "crashed"
      ? "crashed"
      : a.standing === "dropped"
      ? "dropped"
      : candidateMark(a.verdict);
    const tip = `run ${r.number} (${r.run.tag}), ${a.measure} (${a.ref}): improvement ${cells.mean}` +
      (cells.interval === "" ? "" : `, ${cells.interval}`) + (e === null ? "" : `, n = ${e.estimate.n}`) +
      `, ${armVerdictWords(a, "in play")}${a.winner ? ", the winner" : a.standing === "dropped" ? ", dropped" : ""}`;
    return {
      run: r.run,
      number: r.number,
      measure: a.measure,
      x: r.number + (i - (k - 1) / 2) * step,
      mean: e?.estimate.mean ?? null,
      iv: e?.estimate.interval ?? null,
      kind,
      verdict: a.verdict ?? "",
      arm: a.arm,
      tip,
    };
  });
}

/** What a crash's words (`crashed: <cause>`) say after "crashed", for a cell beside one that says it; "" for none. */
function crashCause(words: string): string {
  return words.replace(/^crashed(: )?/, "");
}
