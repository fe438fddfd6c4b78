import { BASE_ARM, benchmarkName, parseMeasureName, siblingName } from "../measure/measure_name.ts";
import { rowsFrame } from "./chart_frames.ts";
import {
  armVerdictWords,
  backendWords,
  betterWords,
  estimateCells,
  formatDuration,
  formatRelative,
  formatTime,
  formatValue,
  metricText,
  minEffectText,
  outcome,
  relativeFact,
  shortSha,
} from "./format.ts";
import { crashHtml } from "./crash_section.ts";
import { escapeHtml, uniqueId } from "./html_escape.ts";
import { badge, type Cell, dataTable, factsList, figure } from "./html_page.ts";
import { roundCandidatesFigure } from "./html_round_candidates.ts";
import { samplesTable } from "./html_run_values.ts";
import type { RunSummary } from "./model.ts";
import { type RoundArm, type RoundSummary, standingWords } from "./round_model.ts";
import { roundSentence, roundWhat, winnerOf } from "./round_words.ts";
import { svgChart } from "./svg_axes.ts";
import { candidateMark, legendHtml, marker, type MarkKind } from "./svg_marks.ts";

/**
 * `outerloop report RUN_DIR --html FILE` for a round (K candidates against
 * one baseline): the verdict with the winner (or why there is none) and the
 * facts, the reasons, every candidate's improvement (positive = better) with
 * its interval — the winner marked, the candidates the screen dropped
 * greyed, with where they were dropped — a table of every candidate's
 * standing and the decision's sentence about it, the siblings of the
 * confirmed candidate, and the baseline's and every candidate's value pair
 * by pair (the same for each sibling, as tables). Pure, like html_run.ts.
 */

/** A sha as `<code>` with its first 10 characters and the full sha as a tooltip. */
function shaHtml(sha: string): string {
  return `<code title="${escapeHtml(sha)}">${escapeHtml(shortSha(sha))}</code>`;
}

/** The sentence, capitalized, as a person reads it. */
function sentence(round: RoundSummary): string {
  const s = roundSentence(round);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function header(run: RunSummary, round: RoundSummary): string {
  const w = winnerOf(round);
  const facts: [string, string | { html: string }][] = [
    ["run", { html: `<code>${escapeHtml(run.tag)}</code>` }],
    [
      "base → candidates",
      { html: `${shaHtml(run.baseSha)} (<code>${escapeHtml(round.baseRef)}</code>) → ${roundWhat(round)}` },
    ],
    ["state", run.state],
    [w === undefined ? (round.open ? "standing" : "no winner") : "winner", sentence(round).replace(/^[^:]*: /, "")],
    ["created", `${formatTime(run.createdAt)} UTC`],
  ];
  if (run.decidedAt !== null) facts.push(["decided", `${formatTime(run.decidedAt)} UTC`]);
  if (run.wallSeconds !== null) facts.push(["wall time", formatDuration(run.wallSeconds)]);
  facts.push(["backend", backendWords(run.backend)]);
  facts.push(["run dir", { html: `<code>${escapeHtml(run.runDir)}</code>` }]);
  const kind = run.disputes.length > 0 ? "disputed" : outcome(run);
  // the winner by its measure's name in code and its ref: "winner candidate" alone reads as a phrase
  const who = w === undefined
    ? escapeHtml(run.verdict === null ? "" : " no winner")
    : ` winner: <code>${escapeHtml(w.measure)}</code> (${escapeHtml(w.ref)})`;
  const relative = formatRelative(run.relative, run.direction, run.unit);
  if (relative !== "") {
    facts.splice(facts.findIndex(([k]) => k === "state") + 2, 0, ["winner's relative change", relativeFact(run)]);
  }
  return `<header><h1>${escapeHtml(run.benchmark)} ${badge(outcome(run), kind)}${who}${
    relative === "" ? "" : ` <span class="relative">${escapeHtml(relative)}</span>`
  }</h1>` +
    `<p>A round of ${roundWhat(round)} against one baseline: ${escapeHtml(metricText(run))}, ` +
    `${betterWords(run.direction)}; min_effect ${minEffectText(run)}</p>${factsList(facts)}</header>`;
}

/** Every candidate's standing, verdict and the decision's sentence about it. */
function candidatesTable(round: RoundSummary): string {
  const header = ["candidate", "ref", "sha", "label", "state", "verdict", "why"].map((text) => ({ text }));
  const rows = round.arms.map((a): Cell[] => [
    { text: `${a.measure}${a.winner ? " (winner)" : ""}`, wrap: "words" },
    { text: a.ref },
    { text: shortSha(a.sha), wrap: "never" },
    { text: a.label, wrap: "words" },
    { text: standingWords(a), wrap: "words" },
    { text: armVerdictWords(a), wrap: "words" },
    { text: a.reason, wrap: "words" },
  ]);
  return dataTable("Every candidate of the round", header, rows);
}

/** The siblings (or the guards) of each confirmed candidate, on its confirmation's pairs; "" when none. */
function siblingsTable(round: RoundSummary, kind: "sibling" | "guard" = "sibling"): string {
  const rows = round.arms.flatMap((a) =>
    (kind === "sibling" ? a.siblings : a.guards ?? []).map((s): Cell[] => {
      const c = estimateCells(s.estimate.mean, s.estimate.interval);
      return [
        { text: a.measure, wrap: "words" },
        { text: s.name },
        { text: s.standing },
        { text: c.mean, num: true },
        { text: c.interval, wrap: "words" },
      ];
    })
  );
  if (rows.length === 0) return "";
  const header = [
    { text: "candidate" },
    { text: kind },
    { text: "standing" },
    { text: "improvement (positive = better)", num: true },
    { text: "improvement interval" },
  ];
  const what = kind === "sibling" ? "Siblings" : "Guards (read from the benchmark's own result)";
  return dataTable(`${what}, on each confirmed candidate's confirmation pairs`, header, rows);
}

/** A candidate's marker among the values: the winner's, greyed when dropped, else by its verdict. */
function valueMark(a: RoundArm): MarkKind {
  if (a.winner) return "winner";
  if (a.verdict === "crashed") return "crashed";
  return a.standing === "dropped" ? "dropped" : candidateMark(a.verdict);
}

/**
 * The values of one benchmark pair by pair — the baseline and every
 * candidate measured on the pair — as a chart with its table (the climbed
 * benchmark), or as a table alone (a sibling: `chart` false); "" without values.
 */
function valuesFigure(run: RunSummary, round: RoundSummary, sibling: string | null, id: string): string {
  const name = (arm: number, pair: number) =>
    sibling === null ? benchmarkName(arm, pair) : siblingName(sibling, arm, pair);
  const pairs: number[] = [];
  for (let p = 1; run.values[name(BASE_ARM, p)] !== undefined; p++) pairs.push(p);
  if (pairs.length === 0) return "";
  const what = sibling === null ? run.benchmark : `sibling ${sibling}`;
  const title = `Values: ${what}`;
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "pair" }, num("baseline"), ...round.arms.map((a) => num(a.measure))];
  const rows = pairs.map((p) => [
    { text: String(p) },
    num(formatValue(run.values[name(BASE_ARM, p)])),
    ...round.arms.map((a) => num(formatValue(run.values[name(a.arm, p)]))),
  ]);
  const table = dataTable(title, header, rows);
  if (sibling !== null) return table;
  const f = rowsFrame({
    labels: pairs.map((p) => `pair ${p}`),
    rowTitle: "pair",
    xTitle: `${metricText(run)} (${betterWords(run.direction)})`,
    values: pairs.flatMap((p) => [BASE_ARM, ...round.arms.map((a) => a.arm)].map((arm) => run.values[name(arm, p)]))
      .filter((v): v is number => v !== undefined && Number.isFinite(v)),
  });
  const parts = [f.axes];
  // one marker per measure of the pair; a candidate's tooltip says which it is and whether it was dropped or won
  const markerOf = (arm: number, p: number, y: number): string => {
    const m = name(arm, p);
    const v = run.values[m];
    if (v === undefined) return "";
    if (arm === BASE_ARM) {
      return marker(
        "baseline",
        f.xs(v),
        y,
        { "data-point": "baseline", "data-measure": m },
        `${m} = ${formatValue(v)}`,
      );
    }
    const a = round.arms[arm - 1]!;
    const extra = { "data-point": "candidate", "data-measure": m, "data-arm": arm };
    const note = a.standing === "dropped" ? ", dropped" : a.winner ? ", the winner" : "";
    return marker(valueMark(a), f.xs(v), y, extra, `${m} (${a.ref}) = ${formatValue(v)}${note}`);
  };
  // the dropped drawn first, the baseline last: what is still in the running stays on top
  const order = [
    ...round.arms.filter((a) => a.standing === "dropped").map((a) => a.arm),
    ...round.arms.filter((a) => a.standing !== "dropped").map((a) => a.arm),
    BASE_ARM,
  ];
  pairs.forEach((p, i) => order.forEach((arm) => parts.push(markerOf(arm, p, f.rowY(i)))));
  const desc = `${what}: the baseline and every candidate measured on each of ${pairs.length} pair(s); ` +
    `a candidate the screen dropped is greyed, and measured no more.`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const kinds: MarkKind[] = ["baseline", ...new Set(round.arms.map(valueMark))];
  // the table under the chart, not beside it: a column per candidate would not fit beside it at K ≥ 3
  return figure(svg, f.width, "", legendHtml(kinds)) + table;
}

/** The body of a round's report (no `<html>` around it); `ids` keeps element ids unique on the page. */
export function roundSection(run: RunSummary, ids: Set<string> = new Set()): string {
  const round = run.round!;
  const out = [header(run, round)];
  if (run.disputes.length > 0) {
    out.push(
      `<p class="failure disputed"><strong>Disputed:</strong> decision.json does not follow from the results ` +
        `beside it: ${escapeHtml(run.disputes.join("; "))}. Its verdict is not the run's.</p>`,
    );
  }
  if (run.failure !== null && run.failure !== "") {
    out.push(`<p class="failure"><strong>Failed:</strong> ${escapeHtml(run.failure)}</p>`);
  }
  out.push(...crashHtml(run));
  if (run.reasons.length > 0) {
    out.push(`<h2>Why</h2><ul class="reasons">${run.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join("")}</ul>`);
  }
  out.push("<h2>Candidates: improvement over the baseline (positive = better)</h2>");
  const chart = roundCandidatesFigure(run, round, uniqueId("round", run.tag, ids));
  out.push(chart ?? `<p class="note">No estimate yet: the round is ${escapeHtml(run.state)}.</p>`);
  out.push(candidatesTable(round));
  const sibs = siblingsTable(round);
  if (sibs !== "") out.push("<h2>Siblings</h2>", sibs);
  const guards = siblingsTable(round, "guard");
  if (guards !== "") out.push("<h2>Guards</h2>", guards);
  out.push("<h2>Values</h2>");
  const values = valuesFigure(run, round, null, uniqueId("values", run.tag, ids));
  out.push(values === "" ? `<p class="note">No values measured yet.</p>` : values);
  const siblings = [...new Set(Object.keys(run.values).flatMap((k) => parseMeasureName(k)?.sibling ?? []))];
  for (const s of siblings) out.push(valuesFigure(run, round, s, ""));
  const samples = samplesTable(run);
  if (samples !== "") out.push(samples);
  return out.join("\n");
}
