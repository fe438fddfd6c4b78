// Tested by tests/report/browser_test.ts
import { shorten } from "../text/shorten.ts";
import {
  anyRelative,
  armCells,
  armDifferenceCells,
  armVerdictWords,
  benchmarkLabel,
  betterWords,
  differenceCells,
  formatDuration,
  formatRelative,
  formatTime,
  formatValue,
  improvementCells,
  metricKey,
  metricText,
  pairsCell,
  severalMetrics,
  shortSha,
  tally,
  verdictWords,
} from "./format.ts";
import { climbImprovementFigure } from "./html_climb_improvements.ts";
import { climbValueFigure, type NumberedRun } from "./html_climb_values.ts";
import { escapeHtml, uniqueId } from "./html_escape.ts";
import { badge, dataTable, factsList, htmlPage, tagCell } from "./html_page.ts";
import { benchmarkValues, type Climb, isCalibration } from "./model.ts";
import { shownEstimate, standingWords } from "./round_model.ts";
import { roundVerdictWords, roundWhat } from "./round_words.ts";
import { calibrationCells } from "./calibration_pairs.ts";
import { type OffBase, offBaseRuns } from "./climb_bases.ts";

/**
 * `outerloop report DIR --html FILE`: a climb as a self-contained page — how
 * many runs ended which way, then for each benchmark and metric its charts:
 * the value over the climb (accepted candidates marked) and each run's
 * improvement (positive = better) against min_effect — then every run in a
 * table. A chart never mixes metrics: runs of another benchmark or metric
 * (or direction) get charts of their own, and calibrations (A/A runs, no
 * candidate) stay out of the charts, listed in the table only. A round
 * (K candidates against one baseline) shows each candidate's improvement
 * beside the others' at its run number (the winner marked, dropped ones
 * greyed), its winner in the values chart, and a row per candidate under its
 * row in the table. Pure: no clock, no network.
 */

/** How many runs ended (or stand) each way, as badges: "3 accept", "1 parked", …. */
function tallyHtml(climb: Climb): string {
  return tally(climb).map(([k, n]) => badge(`${n} ${k}`, k.endsWith(" (disputed)") ? "disputed" : k)).join(" ");
}

/**
 * Every run in one table: what `outerloop runs` prints, plus the values; a
 * benchmark column when there are several. A calibration's row gives its sd,
 * suggested min_effect, A/A mean and interval.
 */
function runsTable(climb: Climb): string {
  const several = severalMetrics(climb);
  const num = (text: string) => ({ text, num: true });
  const header = ["run", "tag", ...(several ? ["benchmark"] : []), "created (UTC)", "base → candidate", "verdict"]
    .map((text) => ({ text }));
  header.push(num("baseline"), num("candidate"), num("difference"), num("improvement"));
  const relatives = anyRelative(climb);
  const rel = <T>(cell: T) => (relatives ? [cell] : []);
  header.push({ text: "improvement interval" }, ...rel({ text: "relative" }), num("n"), num("wall"));
  // the failure or dispute column only when a run has one: a 1200 px page has no width to spare
  const notes = climb.some((r) => (r.failure ?? "") !== "" || r.disputes.length > 0);
  if (notes) header.push({ text: "failure or dispute" });
  // what each candidate tries, once some run has a label
  const labelled = climb.some((r) => r.label !== "" || (r.round?.arms ?? []).some((a) => a.label !== ""));
  if (labelled) header.push({ text: "label" });
  const lab = (text: string) => (labelled ? [{ text: shorten(text, 80), wrap: "words" as const }] : []);
  const rows = climb.flatMap((r, i) => {
    const v = benchmarkValues(r);
    const imp = improvementCells(r);
    const round = r.round;
    const cal = isCalibration(r) ? calibrationCells(r.calibration) : null;
    const one = round === null && cal === null;
    const main = [
      { text: String(i + 1) },
      tagCell(r.tag),
      ...(several ? [{ text: benchmarkLabel(r) }] : []),
      { text: formatTime(r.createdAt), wrap: "words" as const },
      {
        text: cal !== null
          ? `${shortSha(r.baseSha)} (A/A)`
          : round === null
          ? `${shortSha(r.baseSha)} → ${shortSha(r.candidateSha)}`
          : `${shortSha(r.baseSha)} → ${roundWhat(round)}`,
        wrap: "words" as const,
      },
      {
        text: cal !== null
          ? [r.state, cal.words].filter((t) => t !== "").join(": ")
          : round === null
          ? verdictWords(r)
          : roundVerdictWords(r) || r.state,
        wrap: "words" as const,
      },
      num(one ? formatValue(v.baseline) : ""),
      num(one ? formatValue(v.candidate) : ""),
      num(one ? differenceCells(r).mean : ""),
      num(cal?.mean ?? (one ? imp.mean : "")),
      { text: cal?.interval ?? (one ? imp.interval : ""), wrap: "words" as const },
      ...rel({ text: one ? formatRelative(r.relative, r.direction, r.unit, true) : "", wrap: "words" as const }),
      num(cal?.n ?? (one ? pairsCell(r) : "")),
      num(formatDuration(r.wallSeconds)),
      ...(notes ? [{ text: [r.failure ?? "", ...r.disputes].filter((t) => t !== "").join("; ") }] : []),
      ...lab(round === null ? r.label : ""),
    ];
    // a round: one row per candidate under its row, with the estimate shown for it
    const arms = (round?.arms ?? []).map((a) => {
      const e = shownEstimate(a);
      const cells = armCells(e);
      const verdict = `${armVerdictWords(a, "in play")}${
        a.winner ? " (winner)" : a.standing === "dropped" && a.verdict !== "crashed" ? ` (${standingWords(a)})` : ""
      }`;
      return [
        { text: "" },
        { text: `↳ ${a.measure}`, wrap: "never" as const },
        ...(several ? [{ text: "" }] : []),
        { text: "" },
        { text: `→ ${shortSha(a.sha)} (${a.ref})`, wrap: "words" as const },
        { text: verdict, wrap: "words" as const },
        num(formatValue(e?.baseline)),
        num(formatValue(e?.candidate)),
        num(armDifferenceCells(e, r.direction).mean),
        num(cells.mean),
        { text: cells.interval, wrap: "words" as const },
        ...rel({ text: formatRelative(e?.relative, r.direction, r.unit, true), wrap: "words" as const }),
        num(e === null ? "" : String(e.estimate.n)),
        num(""),
        ...(notes ? [{ text: "" }] : []),
        ...lab(a.label),
      ];
    });
    return [main, ...arms];
  });
  return dataTable("All runs, oldest first", header, rows);
}

/** How many runs on another base the note names one by one; the rest it counts. */
const BASES_NAMED = 6;

/**
 * The note above a chart whose runs are not one descent: which ran on
 * another base than the best so far, and on which — so the accepted
 * candidates' line is not read as one climb. "" when every run is on it.
 */
function basesNote(off: readonly OffBase[]): string {
  if (off.length === 0) return "";
  const named = off.slice(0, BASES_NAMED).map((o) =>
    `run ${o.number} (${o.tag}) on ${shortSha(o.baseSha)}, not ${shortSha(o.bestSha)}`
  );
  const rest = off.length - named.length;
  const list = named.join("; ") + (rest > 0 ? `; and ${rest} more` : "");
  return `<p class="note bases">Not one descent: ${off.length} run${off.length === 1 ? "" : "s"} measured ` +
    `against another base than the best so far (the first run's base, then each accepted candidate): ` +
    `${escapeHtml(list)}. The dotted line joins the accepted candidates across those bases.</p>`;
}

/** The whole page for a climb (oldest first: see `toClimb`); an empty climb says so. */
export function renderClimbHtml(climb: Climb): string {
  const ids = new Set<string>();
  const benchmarks = [...new Set(climb.map((r) => r.benchmark))];
  const title = `Climb${benchmarks.length === 1 ? ` of ${benchmarks[0]}` : ""}: ${climb.length} runs`;
  const out = [`<header><h1>${escapeHtml(title)}</h1><p>${tallyHtml(climb)}</p>`];
  if (climb.length === 0) {
    out.push(`</header><p class="note">No runs in this climb yet.</p>`);
    return htmlPage(title, out.join("\n"));
  }
  const first = climb[0], last = climb[climb.length - 1];
  out.push(
    factsList([
      ["benchmark", benchmarks.join(", ")],
      ["first run", `${formatTime(first?.createdAt ?? "")} UTC (${first?.tag ?? ""})`],
      ["last run", `${formatTime(last?.createdAt ?? "")} UTC (${last?.tag ?? ""})`],
    ]) + "</header>",
  );
  const numbered: NumberedRun[] = climb.map((run, i) => ({ number: i + 1, run }));
  const climbed = numbered.filter((r) => !isCalibration(r.run));
  for (const key of [...new Set(climbed.map((r) => metricKey(r.run)))]) {
    const runs = climbed.filter((r) => metricKey(r.run) === key);
    const { benchmark, metric, direction } = runs[0]!.run;
    out.push(`<h2>${escapeHtml(benchmark)}: ${escapeHtml(metricText(runs[0]!.run))} (${betterWords(direction)})</h2>`);
    out.push(basesNote(offBaseRuns(runs)));
    out.push(climbValueFigure(runs, climb.length, uniqueId("climb", `${benchmark}-${metric}`, ids)));
    out.push(`<h2>${escapeHtml(benchmark)}: ${escapeHtml(metric)}, improvement per run (positive = better)</h2>`);
    out.push(climbImprovementFigure(runs, climb.length, uniqueId("improvement", `${benchmark}-${metric}`, ids)));
  }
  const calibrations = numbered.length - climbed.length;
  if (calibrations > 0) {
    out.push(
      `<p class="note">${calibrations} calibration run${calibrations === 1 ? "" : "s"} (A/A: the base against ` +
        `itself) left out of the charts; see the table.</p>`,
    );
  }
  out.push("<h2>All runs</h2>", runsTable(climb));
  return htmlPage(title, out.join("\n"));
}
