// Tested by tests/report/browser_test.ts
import {
  backendWords,
  betterWords,
  differenceCells,
  formatDuration,
  formatRelative,
  formatTime,
  improvementCells,
  metricText,
  minEffectText,
  outcome,
  relativeFact,
  shortSha,
} from "./format.ts";
import { escapeHtml, uniqueId } from "./html_escape.ts";
import { badge, factsList, htmlPage } from "./html_page.ts";
import { differenceFigure } from "./html_run_difference.ts";
import { samplesTable, valueFigures } from "./html_run_values.ts";
import { isCalibration, type RunSummary } from "./model.ts";
import { calibrationSection } from "./html_calibration.ts";
import { setAsideClause } from "./set_aside.ts";
import { crashHtml } from "./crash_section.ts";
import { roundSection } from "./html_round.ts";

/**
 * `outerloop report RUN_DIR --html FILE`: one run as a self-contained page —
 * the verdict and the facts it was decided on (the improvement and the
 * difference, each with its interval), the reasons, the difference chart with
 * min_effect and the interval (a pair set aside as outlying hollow), every
 * measured value with the spread of its samples, when it reported several.
 * A disputed decision
 * is marked as such, never shown as fact. A round has a page of its own
 * (html_round.ts), and so has a calibration (html_calibration.ts).
 * Pure: the same run gives the same bytes, with no clock and no network.
 */

/** A sha as `<code>` with its first 10 characters and the full sha as a tooltip. */
function shaHtml(sha: string | null): string {
  return `<code title="${escapeHtml(sha ?? "")}">${escapeHtml(shortSha(sha))}</code>`;
}

/** The header of a run: benchmark, verdict badge, metric and the facts of the run. */
function header(run: RunSummary): string {
  const facts: [string, string | { html: string }][] = [
    ["run", { html: `<code>${escapeHtml(run.tag)}</code>` }],
    ["base → candidate", { html: `${shaHtml(run.baseSha)} → ${shaHtml(run.candidateSha)}` }],
    ...(run.label === "" ? [] : [["label", run.label] as [string, string]]),
    ["state", run.state],
    ...estimateFacts(run),
    ["created", `${formatTime(run.createdAt)} UTC`],
  ];
  if (run.decidedAt !== null) facts.push(["decided", `${formatTime(run.decidedAt)} UTC`]);
  if (run.wallSeconds !== null) facts.push(["wall time", formatDuration(run.wallSeconds)]);
  facts.push(["backend", backendWords(run.backend)]);
  facts.push(["run dir", { html: `<code>${escapeHtml(run.runDir)}</code>` }]);
  const kind = run.disputes.length > 0 ? "disputed" : outcome(run);
  const relative = formatRelative(run.relative, run.direction, run.unit);
  return `<header><h1>${escapeHtml(run.benchmark)} ${badge(outcome(run), kind)}${
    relative === "" ? "" : ` <span class="relative">${escapeHtml(relative)}</span>`
  }</h1>` +
    `<p>${escapeHtml(metricText(run))}, ${betterWords(run.direction)}; min_effect ${minEffectText(run)}</p>` +
    `${factsList(facts)}</header>`;
}

/** The improvement and the difference the verdict rests on, as facts; none until decided. */
function estimateFacts(run: RunSummary): [string, string][] {
  const e = run.improvement;
  if (e === null) return [];
  const imp = improvementCells(run), diff = differenceCells(run);
  const aside = e.setAside.length === 0 ? "" : `, ${setAsideClause(e.setAside, e.setAsideWhy)}`;
  const pairs = e.interval === null ? "one pair, no interval" : `n = ${e.n}${aside}`;
  const text = (c: typeof imp) => [c.mean, c.interval, pairs].filter((t) => t !== "").join(", ");
  const relative = relativeFact(run);
  return [
    ["improvement (positive = better)", text(imp)],
    ["difference (candidate − baseline)", text(diff)],
    ...(relative === "" ? [] : [["relative (candidate / baseline)", relative] as [string, string]]),
  ];
}

/**
 * The body of a run's report (no `<html>` around it), so a climb page could
 * embed runs; `ids` keeps element ids unique across everything on the page.
 */
function runSection(run: RunSummary, ids: Set<string> = new Set()): string {
  if (run.round !== null) return roundSection(run, ids);
  if (isCalibration(run)) return calibrationSection(run, shaHtml, uniqueId("calibration", run.tag, ids));
  const out = [header(run)];
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
  out.push("<h2>Difference: candidate − baseline</h2>");
  const diff = differenceFigure(run, uniqueId("diff", run.tag, ids));
  out.push(diff ?? `<p class="note">No difference yet: the run is ${escapeHtml(run.state)}.</p>`);
  out.push("<h2>Values</h2>");
  const values = valueFigures(run, (group) => uniqueId("values", `${run.tag}-${group}`, ids));
  out.push(values.length > 0 ? values.join("\n") : `<p class="note">No values measured yet.</p>`);
  const samples = samplesTable(run);
  if (samples !== "") out.push(samples);
  return out.join("\n");
}

/** The whole page for one run. */
export function renderRunHtml(run: RunSummary): string {
  return htmlPage(`${run.benchmark}: ${outcome(run)} (${run.tag})`, runSection(run));
}
