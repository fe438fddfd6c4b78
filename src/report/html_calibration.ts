import { formatDuration } from "../text/duration.ts";
import { rowsFrame } from "./chart_frames.ts";
import { backendWords, betterWords, formatTime, formatValue, metricText } from "./format.ts";
import { escapeHtml } from "./html_escape.ts";
import { badge, type Cell, dataTable, factsList, figure } from "./html_page.ts";
import type { RunSummary } from "./model.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { COLORS, legendHtml, marker } from "./svg_marks.ts";
import {
  aaInterval,
  aaPairs,
  BIAS_WARNING,
  derivationWords,
  noCalibrationWords,
  powerHeader,
  powerHeading,
  powerRows,
  signedStat,
  stat,
  suggestedKeys,
  suggestedSiblingKeys,
  zeroWords,
} from "./calibration_pairs.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";

/**
 * `outerloop report RUN_DIR --html FILE` of a calibration (the base tree
 * against itself): the bias warning when the A/A interval excludes 0; the
 * A/A pairs' improvements (the second measure over the first) as dots with
 * their mean and interval against zero — no min_effect is shaded, for an A/A
 * run has none to clear; the sd; each sibling's spread; the power table of
 * fixed designs; the suggested contract keys ready to paste, and how they
 * were derived. A calibration still measuring says so.
 */

/** The page's body for a calibration; `shaHtml` prints a sha, `id` names the chart. */
export function calibrationSection(run: RunSummary, shaHtml: (sha: string) => string, id: string): string {
  const c = run.calibration ?? null;
  const facts: [string, string | { html: string }][] = [
    ["run", { html: `<code>${escapeHtml(run.tag)}</code>` }],
    ["base (against itself)", { html: shaHtml(run.baseSha) }],
    ["state", run.state],
  ];
  if (c !== null) {
    facts.push(
      ["A/A pairs", String(c.n)],
      ["improvement (positive = better)", `mean ${signedStat(c.mean)}, A/A interval ${aaInterval(c)}`],
      ["sd of the A/A improvements", stat(c.sd)],
      ["suggested keys", suggestedKeys(c)],
    );
  }
  facts.push(["created", `${formatTime(run.createdAt)} UTC`]);
  if (c !== null) facts.push(["calibrated", `${formatTime(c.calibratedAt)} UTC`]);
  if (run.wallSeconds !== null) facts.push(["wall time", formatDuration(run.wallSeconds)]);
  facts.push(["backend", backendWords(run.backend)]);
  facts.push(["run dir", { html: `<code>${escapeHtml(run.runDir)}</code>` }]);
  const word = c === null ? run.state : c.biased ? "calibrated: biased" : "calibrated";
  const out = [
    `<header><h1>${escapeHtml(run.benchmark)} ${badge(word, c?.biased ? "inconclusive" : "open")}</h1>` +
    `<p>Calibration of ${escapeHtml(metricText(run))}, ${betterWords(run.direction)}: the base measured against ` +
    `itself</p>${factsList(facts)}</header>`,
  ];
  if (run.failure !== null && run.failure !== "") {
    out.push(`<p class="failure"><strong>Failed:</strong> ${escapeHtml(run.failure)}</p>`);
  }
  if (c === null) {
    out.push(`<p class="note">${escapeHtml(noCalibrationWords(run.state))}</p>`);
    return out.join("\n");
  }
  if (c.biased) out.push(`<p class="failure bias"><strong>Warning:</strong> ${escapeHtml(BIAS_WARNING)}.</p>`);
  out.push("<h2>A/A pairs: improvement of the second measure over the first</h2>", aaFigure(run, c, id));
  const sibs = Object.entries(c.siblings);
  if (sibs.length > 0) {
    out.push(
      "<h2>Siblings</h2>",
      dataTable(
        "Siblings: improvement of the second measure over the first",
        [{ text: "sibling" }, { text: "metric" }, { text: "mean", num: true }, { text: "sd", num: true }, {
          text: "A/A interval",
        }, { text: "bias" }],
        sibs.map(([name, s]) => [
          { text: name },
          { text: `${s.metric}, ${betterWords(s.direction)}`, wrap: "words" },
          { text: signedStat(s.mean), num: true },
          { text: stat(s.sd), num: true },
          { text: aaInterval({ ...s, confidence: c.confidence }), wrap: "words" },
          { text: s.biased ? "excludes 0: its two sides differ systematically" : "contains 0", wrap: "words" },
        ]),
      ),
    );
  }
  out.push(
    "<h2>Power: fixed designs</h2>",
    dataTable(
      powerHeading(c),
      powerHeader(c).map((text) => ({ text, num: true })),
      powerRows(c).map((r) => r.map((text): Cell => ({ text, num: true }))),
    ),
  );
  const sibKeys = suggestedSiblingKeys(c);
  out.push(
    "<h2>Suggested contract keys</h2>",
    `<pre class="keys"><code>${escapeHtml(suggestedKeys(c))}</code></pre>`,
    ...(sibKeys.length === 0 ? [] : [`<p>Sibling tolerances: <code>${escapeHtml(sibKeys.join("; "))}</code></p>`]),
    `<p class="derivation">How: ${escapeHtml(derivationWords(c))}</p>`,
  );
  return out.join("\n");
}

/** The A/A chart: each pair's improvement as a dot, their mean with the A/A interval, against zero; its table beside. */
function aaFigure(run: RunSummary, c: CalibrationRecord, id: string): string {
  const pairs = aaPairs(c);
  const f = rowsFrame({
    labels: [...pairs.map((p) => `pair ${p.pair}`), "mean"],
    rowTitle: "pair",
    xTitle: `${run.metric}: improvement, second over first (positive = better)`,
    values: [...pairs.map((p) => p.improvement), c.lower, c.upper, c.mean],
    include: [0],
  });
  const { area, xs } = f;
  const parts = [
    f.axes,
    svgLine(xs(0), area.top, xs(0), area.bottom, "#57606a", { "stroke-width": 1.5, class: "zero" }),
  ];
  pairs.forEach((p, i) => {
    const tip = `pair ${p.pair} (seed ${p.seed ?? "?"}): ${formatValue(p.first)} then ${formatValue(p.second)}, ` +
      `improvement ${signedStat(p.improvement)}`;
    parts.push(
      marker("pair", xs(p.improvement), f.rowY(i), { "data-point": "pair", "data-value": p.improvement }, tip),
    );
  });
  const y = f.rowY(pairs.length);
  const ends = { "data-lower": c.lower, "data-upper": c.upper };
  const ink = c.biased ? COLORS.inconclusive : COLORS.ink;
  parts.push(svgLine(xs(c.lower), y, xs(c.upper), y, ink, { "stroke-width": 2, class: "interval", ...ends }));
  for (const end of [c.lower, c.upper]) parts.push(svgLine(xs(end), y - 6, xs(end), y + 6, ink));
  const tip = `mean improvement ${signedStat(c.mean)} over ${c.n} pairs, A/A interval ${aaInterval(c)}: ${
    zeroWords(c)
  }`;
  parts.push(marker("mean", xs(c.mean), y, { "data-point": "mean", "data-value": c.mean }, tip));
  const title = "A/A pairs: improvement of the second measure over the first";
  const desc = `The improvement of ${run.metric} (positive = better) of each of ${c.n} A/A pairs — the base ` +
    `measured twice on one seed — and their mean ${signedStat(c.mean)} with the A/A interval ${aaInterval(c)}; ` +
    `${zeroWords(c)}.`;
  const svg = svgChart({ id, width: f.width, height: f.height, title, desc }, parts.join(""));
  const header: Cell[] = [{ text: "pair" }, { text: "seed", num: true }, { text: "first", num: true }, {
    text: "second",
    num: true,
  }, { text: "improvement", num: true }];
  const rows: Cell[][] = pairs.map((p) => [
    { text: `pair ${p.pair}` },
    { text: p.seed === null ? "" : String(p.seed), num: true },
    { text: formatValue(p.first), num: true },
    { text: formatValue(p.second), num: true },
    { text: signedStat(p.improvement), num: true },
  ]);
  rows.push([{ text: `mean of ${c.n} pairs (sd ${stat(c.sd)})`, wrap: "words" }, { text: "" }, { text: "" }, {
    text: "",
  }, { text: signedStat(c.mean), num: true }]);
  rows.push([{ text: "A/A interval", wrap: "words" }, { text: "" }, { text: "" }, { text: "" }, {
    text: aaInterval(c),
    wrap: "words",
  }]);
  const legend = legendHtml([], [
    legendItem(marker("pair", 8, 8, {}, "one A/A pair"), "one A/A pair: second over first"),
    legendItem(marker("mean", 8, 8, {}, "mean"), "mean, with the A/A interval (it should contain 0)"),
  ]);
  return figure(svg, f.width, dataTable(title, header, rows), legend);
}

function legendItem(svgMarker: string, words: string): string {
  return `<li><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">${svgMarker}</svg>` +
    `${escapeHtml(words)}</li>`;
}
