import { rowsFrame } from "./chart_frames.ts";
import { armCells, armVerdictWords, relativeMinEffect } from "./format.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { minEffectLine } from "./layout.ts";
import type { RunSummary } from "./model.ts";
import { type ArmEstimate, pairRange, type RoundArm, type RoundSummary } from "./round_model.ts";
import { svgChart, svgLine, svgText } from "./svg_axes.ts";
import { candidateMark, COLORS, legendHtml, marker, type MarkKind } from "./svg_marks.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks } from "./svg_threshold.ts";

/**
 * A round's candidates chart: each candidate's **improvement** (positive =
 * better, whatever the direction) with its interval, one row per estimate —
 * the screen's for every candidate, and the confirmation's (on fresh pairs)
 * for the screen's choice — against zero and min_effect, its accepting side
 * shaded. The winner's confirmation is a green diamond labelled "winner"; a
 * candidate the screen dropped is drawn greyed, and so is one whose eval
 * crashed (a greyed cross); a screen estimate of a
 * candidate still in the running is a hollow diamond (the screen chooses, it
 * does not decide). Beside it, the same numbers as a table.
 */

/** One plotted estimate. */
interface Row {
  readonly arm: RoundArm;
  readonly stage: "screen" | "confirmation";
  readonly e: ArmEstimate;
  readonly label: string;
}

function rowsOf(round: RoundSummary): Row[] {
  return round.arms.flatMap((a) => {
    const out: Row[] = [];
    if (a.screen !== null) {
      const label = a.standing === "dropped" ? `${a.measure} · dropped at ${a.pairs}` : `${a.measure} · screen`;
      out.push({ arm: a, stage: "screen", e: a.screen, label });
    }
    if (a.confirmation !== null) {
      out.push({ arm: a, stage: "confirmation", e: a.confirmation, label: `${a.measure} · confirmation` });
    }
    return out;
  });
}

/** The marker of a row: a crashed candidate or a dropped one (greyed), the winner, a screen estimate, or the verdict's. */
function markOf(r: Row): MarkKind {
  if (r.arm.verdict === "crashed") return "crashed";
  if (r.arm.standing === "dropped") return "dropped";
  if (r.stage === "screen") return "screen";
  return r.arm.winner ? "winner" : candidateMark(r.arm.verdict);
}

/** The chart beside its table, or null when no candidate has an estimate yet. */
export function roundCandidatesFigure(run: RunSummary, round: RoundSummary, id: string): string | null {
  const rows = rowsOf(round);
  if (rows.length === 0) return null;
  const f = rowsFrame({
    labels: rows.map((r) => r.label),
    rowTitle: "candidate",
    xTitle: `${run.metric}: improvement over the baseline (positive = better)`,
    values: rows.flatMap((r) => {
      const i = r.e.estimate.interval;
      return [r.e.estimate.mean, ...(i === null ? [] : [i.lower, i.upper])];
    }),
    include: [0, run.minEffect],
    width: 700,
  });
  const { area, xs } = f;
  const marks = thresholdMarks(minEffectLine("maximize", run.minEffect, xs), area, "x", relativeMinEffect(run));
  const parts = [
    marks.shade,
    f.axes,
    svgLine(xs(0), area.top, xs(0), area.bottom, "#57606a", { "stroke-width": 1.5, class: "zero" }),
    marks.line,
  ];
  rows.forEach((r, i) => {
    const y = f.rowY(i);
    // a crashed candidate left play as a dropped one did: greyed alike, told apart by its marker
    const dropped = r.arm.standing === "dropped" || r.arm.verdict === "crashed";
    const ink = dropped ? COLORS.dropped : r.stage === "screen" ? "#57606a" : COLORS.ink;
    const data = {
      "data-arm": r.arm.arm,
      "data-stage": r.stage,
      "data-dropped": dropped ? "true" : undefined,
      "data-winner": r.arm.winner && r.stage === "confirmation" ? "true" : undefined,
    };
    const cells = armCells(r.e);
    const g: string[] = [];
    const iv = r.e.estimate.interval;
    if (iv !== null) {
      const ends = { "data-lower": iv.lower, "data-upper": iv.upper };
      const width = r.stage === "confirmation" ? 2.5 : 1.5;
      g.push(
        svgLine(xs(iv.lower), y, xs(iv.upper), y, ink, { "stroke-width": width, class: "interval", ...data, ...ends }),
      );
      for (const end of [iv.lower, iv.upper]) g.push(svgLine(xs(end), y - 5, xs(end), y + 5, ink));
    }
    const tip = `${r.arm.measure} (${r.arm.ref}), ${r.stage} on ${pairRange(r.e.firstPair, r.e.lastPair)}: ` +
      `improvement ${[cells.mean, cells.interval].filter((t) => t !== "").join(" ")}` +
      `${r.arm.verdict === null ? "" : `, ${armVerdictWords(r.arm)}`}${
        r.arm.standing === "dropped" ? ", dropped" : ""
      }${r.arm.winner ? ", winner" : ""}`;
    const winner = data["data-winner"] !== undefined;
    g.push(
      marker(
        markOf(r),
        xs(r.e.estimate.mean),
        y,
        { "data-point": "improvement", "data-value": r.e.estimate.mean, ...data },
        tip,
        winner ? 7 : 5,
      ),
    );
    if (winner) {
      const x = xs(iv?.upper ?? r.e.estimate.mean) + 10;
      const anchor = x + 50 > area.right ? "end" : "start";
      g.push(svgText(anchor === "end" ? xs(iv?.lower ?? r.e.estimate.mean) - 10 : x, y - 6, "winner", {
        color: COLORS.accept,
        weight: "bold",
        anchor,
      }));
    }
    const cls = dropped ? "arm dropped" : "arm";
    parts.push(`<g class="${cls}"${dropped ? ' opacity="0.75"' : ""}>${g.join("")}</g>`);
  });
  const title = "Candidates: improvement over the baseline (positive = better)";
  const desc = `The improvement of ${run.metric} (positive = better) of each of ${round.arms.length} candidates ` +
    `over the baseline, with its interval: on the screen's pairs, and for the screen's choice on the fresh ` +
    `pairs of its confirmation. Greyed: dropped by the screen, or crashed. The dashed line is min_effect; the shaded side ` +
    `of it improves by more.`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "estimate" }, num("improvement"), { text: "improvement interval" }, { text: "pairs" }];
  const table = dataTable(
    title,
    header,
    rows.map((r) => {
      const c = armCells(r.e);
      return [
        { text: `${r.label}${r.arm.winner && r.stage === "confirmation" ? " (winner)" : ""}`, wrap: "words" },
        num(c.mean),
        { text: c.interval, wrap: "words" },
        { text: pairRange(r.e.firstPair, r.e.lastPair), wrap: "words" },
      ];
    }),
  );
  const kinds = [...new Set(rows.map(markOf))];
  return figure(svg, f.width, table, legendHtml(kinds, [MIN_EFFECT_LEGEND]));
}
