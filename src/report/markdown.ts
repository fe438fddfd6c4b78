import {
  anyRelative,
  armCells,
  armDifferenceCells,
  armVerdictWords,
  backendWords,
  benchmarkLabel,
  betterWords,
  differenceCells,
  formatDuration,
  formatPairDifference,
  formatRelative,
  formatTime,
  formatValue,
  improvementCells,
  minEffectText,
  outcome,
  pairsCell,
  relativeFact,
  severalMetrics,
  shortSha,
  tally,
  verdictWords,
} from "./format.ts";
import { shorten } from "../text/shorten.ts";
import { mdCell, mdCode, mdPipes, mdTable, mdText, unitWords } from "./markdown_escape.ts";
import { pairLabel, pairRows } from "./measures.ts";
import { setAsideClause } from "./set_aside.ts";
import { roundMarkdown } from "./markdown_round.ts";
import { roundVerdictWords, roundWhat } from "./round_words.ts";
import { shownEstimate, standingWords } from "./round_model.ts";
import { benchmarkValues, type Climb, isCalibration, type RunSummary } from "./model.ts";
import { calibrationMarkdown } from "./markdown_calibration.ts";
import { calibrationCells } from "./calibration_pairs.ts";
import { crashMarkdown } from "./crash_section.ts";

/**
 * `outerloop report … --md`: a compact Markdown summary to paste into a pull
 * request or an agent's log — the verdict first, then the numbers it rests
 * on, then the reasons. Every name and sentence from the run is escaped
 * (`markdown_escape.ts`), so no value can break a table or the page.
 */

/** The one-line facts under a heading: tag, shas, times. */
function runFacts(r: RunSummary): string {
  const parts = [
    `Run ${mdCode(r.tag)} (${backendWords(r.backend)}): base ${mdCode(shortSha(r.baseSha))} -> candidate ${
      mdCode(shortSha(r.candidateSha))
    }${r.label === "" ? "" : ` (${mdText(r.label.replace(/[\r\n\t]+/g, " "))})`}`,
    `created ${formatTime(r.createdAt)} UTC`,
  ];
  // how the run ended: a failed or cancelled run was not decided
  const ended = r.state === "failed" || r.state === "cancelled" || r.state === "calibrated" ? r.state : "decided";
  if (r.wallSeconds !== null) parts.push(`${ended} after ${formatDuration(r.wallSeconds)}`);
  return parts.join(", ") + ".";
}

/**
 * The sentence of the benchmark's estimate: the improvement (positive =
 * better) with its interval, then the same as a difference (candidate −
 * baseline), so neither sign can be misread; "" until decided.
 */
function estimateSentence(r: RunSummary): string {
  const e = r.improvement;
  if (e === null) return "";
  const imp = improvementCells(r), diff = differenceCells(r);
  if (e.interval === null) {
    return `Improvement (positive = better) on one pair: ${imp.mean}; difference (candidate − baseline) ${diff.mean}.`;
  }
  const k = e.setAside.length;
  const over = k === 0 ? `${e.n} pairs` : `${e.n - k} of ${e.n} pairs (${setAsideClause(e.setAside, e.setAsideWhy)})`;
  const relative = relativeFact(r);
  return `Improvement (positive = better) over ${over}: mean ${imp.mean}, interval ${imp.interval}; ` +
    `difference (candidate − baseline): mean ${diff.mean}, interval ${diff.interval}` +
    (relative === "" ? "." : `; relative (candidate / baseline): ${relative}.`);
}

/**
 * The samples' spread of each measure that reported several (the metric an
 * array): how many, the smallest, the median and the largest; "" when none did.
 */
function samplesTable(r: RunSummary): string {
  const entries = Object.entries(r.samples);
  if (entries.length === 0) return "";
  const rows = entries.map(([name, s]) => [
    mdPipes(mdCode(name)),
    String(s.n),
    formatValue(s.min),
    formatValue(s.median),
    formatValue(s.max),
  ]);
  return "Samples behind each value (several per measure: the value is their summary):\n\n" +
    mdTable(["measure", "n", "min", "median", "max"], rows, new Set([1, 2, 3, 4]));
}

/**
 * One run: a heading with the benchmark and the verdict (or the state while
 * there is none; a disputed verdict says so, with the disagreement), the
 * metric and min_effect, a table of every measure's value with the
 * difference beside each pair (and the mean difference on a summary row;
 * a pair set aside as outlying is marked, and the summary row says it is the
 * mean of the kept pairs), the spread of each measure's samples when it
 * reported several, the benchmark's improvement and difference with their
 * intervals, the failure of a failed run, and the reasons. A round has a
 * report of its own (markdown_round.ts), and so has a calibration
 * (markdown_calibration.ts).
 */
export function runMarkdown(r: RunSummary): string {
  if (r.round !== null) return roundMarkdown(r);
  if (isCalibration(r)) return calibrationMarkdown(r);
  const relative = formatRelative(r.relative, r.direction, r.unit);
  const out = [
    `### ${mdCode(r.benchmark)}: ${outcome(r)}${relative === "" ? "" : `, ${relative}`}`,
    "",
    `Metric ${mdCode(r.metric)}${unitWords(r)} (${betterWords(r.direction)}), min_effect ${minEffectText(r)}. ` +
    runFacts(r),
  ];
  if (r.disputes.length > 0) {
    out.push(
      "",
      `**Disputed:** decision.json does not follow from the results beside it: ${mdText(r.disputes.join("; "))}.`,
    );
  }
  if (r.failure !== null && r.failure !== "") out.push("", `**Failed:** ${mdText(r.failure)}`);
  out.push(...crashMarkdown(r));
  const aside = r.improvement?.setAside ?? [];
  const { rows, others } = pairRows(r.values, r.differences, r.difference, aside);
  if (rows.length > 0) {
    const summary = differenceCells(r).mean;
    const cells = rows.map((row) => [
      mdPipes(
        `${row.sibling ? "sibling " : row.guard ? "guard " : ""}${
          mdCode(row.sibling || row.guard ? row.group : r.benchmark)
        }`,
      ) +
      pairLabel(row, aside),
      formatValue(row.base),
      formatValue(row.candidate),
      row.pair === null && !row.sibling && !row.guard && summary !== ""
        ? summary
        : formatPairDifference(row.difference, row.base, row.candidate),
    ]);
    const header = ["benchmark", "baseline", "candidate", "difference (candidate − baseline)"];
    out.push("", mdTable(header, cells, new Set([1, 2, 3])));
  }
  if (others.length > 0) {
    out.push("", "Other values: " + others.map(([name, v]) => `${mdCode(name)} ${formatValue(v)}`).join(", ") + ".");
  }
  const samples = samplesTable(r);
  if (samples !== "") out.push("", samples);
  const estimate = estimateSentence(r);
  if (estimate !== "") out.push("", estimate);
  if (r.reasons.length > 0) out.push("", ...r.reasons.map((reason) => `- ${mdText(reason)}`));
  return out.join("\n") + "\n";
}

/**
 * A climb: a heading with the number of runs and how they ended, then one
 * row per run, oldest first — tag, created, shas, verdict (or state), the
 * benchmark's baseline and candidate (means over the pairs), the mean
 * difference (candidate − baseline), the improvement (positive = better) with
 * its interval, n, and the wall time. A benchmark column (`name: metric`)
 * appears when the climb measures more than one. A round is a row with its
 * verdict and winner, then one row per candidate (`↳ candidate-2`): its sha
 * and ref, its verdict (`(winner)`, or where it was dropped), and the
 * estimate shown for it — the confirmation's for the screen's choice, else
 * the screen's — with the means of both sides over that estimate's pairs.
 * A calibration's row shows its sd and suggested min_effect beside its
 * state, and its A/A mean, interval and pairs in the improvement columns.
 * Once some run has a label, a last column gives it (cut at 60 characters).
 */
export function climbMarkdown(climb: Climb): string {
  const benchmarks = [...new Set(climb.map((r) => r.benchmark))];
  const several = severalMetrics(climb);
  const what = benchmarks.length === 1 ? ` of ${mdCode(benchmarks[0] ?? "")}` : "";
  const head = `### Climb${what}: ${climb.length} run${climb.length === 1 ? "" : "s"}` +
    (climb.length > 0 ? ` (${tally(climb).map(([k, n]) => `${n} ${k}`).join(", ")})` : "");
  if (climb.length === 0) return head + "\n";
  const header = ["#", "tag", ...(several ? ["benchmark"] : []), "created (UTC)", "base -> candidate", "verdict"];
  const relatives = anyRelative(climb);
  const rel = (text: string) => (relatives ? [text] : []);
  header.push("baseline", "candidate", "difference", "improvement", "improvement interval", ...rel("relative"));
  header.push("n", "wall");
  // what each candidate tries, once some run has a label
  const labelled = climb.some((r) => r.label !== "" || (r.round?.arms ?? []).some((a) => a.label !== ""));
  if (labelled) header.push("label");
  const lab = (text: string) => (labelled ? [mdCell(shorten(text, 60))] : []);
  const numbers = ["#", "baseline", "candidate", "difference", "improvement", "n", "wall"];
  const right = new Set(numbers.map((h) => header.indexOf(h)));
  const rows = climb.flatMap((r, index) => {
    const v = benchmarkValues(r);
    const imp = improvementCells(r);
    const round = r.round;
    const cal = isCalibration(r) ? calibrationCells(r.calibration) : null;
    const verdict = cal !== null
      ? [r.state, cal.words].filter((t) => t !== "").join(": ")
      : round === null
      ? verdictWords(r)
      : roundVerdictWords(r) || r.state;
    const one = round === null && cal === null;
    const main = [
      String(index + 1),
      mdPipes(mdCode(r.tag)),
      ...(several ? [mdPipes(mdCode(benchmarkLabel(r)))] : []),
      formatTime(r.createdAt),
      cal !== null
        ? `${mdCode(shortSha(r.baseSha))} (A/A)`
        : round === null
        ? `${mdCode(shortSha(r.baseSha))} -> ${mdCode(shortSha(r.candidateSha))}`
        : `${mdCode(shortSha(r.baseSha))} -> ${roundWhat(round)}`,
      r.failure ? `${mdCell(verdict)}: ${mdCell(r.failure)}` : mdCell(verdict),
      one ? formatValue(v.baseline) : "",
      one ? formatValue(v.candidate) : "",
      one ? differenceCells(r).mean : "",
      cal?.mean ?? (one ? imp.mean : ""),
      cal?.interval ?? (one ? imp.interval : ""),
      ...rel(one ? formatRelative(r.relative, r.direction, r.unit) : ""),
      cal?.n ?? (one ? pairsCell(r) : ""),
      formatDuration(r.wallSeconds),
      ...lab(round === null ? r.label : ""),
    ];
    // a round: one row per candidate under its row, the estimate shown for it (the confirmation's, else the screen's)
    const arms = (round?.arms ?? []).map((a) => {
      const e = shownEstimate(a);
      const cells = armCells(e);
      return [
        "",
        mdPipes(`↳ ${mdCode(a.measure)}`),
        ...(several ? [""] : []),
        "",
        `-> ${mdCode(shortSha(a.sha))} (${mdPipes(mdCode(a.ref))})`,
        mdCell(
          `${armVerdictWords(a, "in play")}${
            a.winner ? " (winner)" : a.standing === "dropped" && a.verdict !== "crashed" ? ` (${standingWords(a)})` : ""
          }`,
        ),
        formatValue(e?.baseline),
        formatValue(e?.candidate),
        armDifferenceCells(e, r.direction).mean,
        cells.mean,
        cells.interval,
        ...rel(formatRelative(e?.relative, r.direction, r.unit)),
        e === null ? "" : String(e.estimate.n),
        "",
        ...lab(a.label),
      ];
    });
    return [main, ...arms];
  });
  return [head, "", mdTable(header, rows, right)].join("\n") + "\n";
}
