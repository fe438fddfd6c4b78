// Tested by tests/report/round_report_test.ts
import { renderColumns } from "../text/columns.ts";
import { escapeControls } from "../text/terminal.ts";
import { shorten } from "../text/shorten.ts";
import { armEstimateText, armVerdictWords } from "./format.ts";
import { pairRange, type RoundSummary, standingWords } from "./round_model.ts";
import { roundSentence } from "./round_words.ts";

/** A cell on one line, nothing a terminal acts on: a ref is the user's text. */
function oneLine(s: string): string {
  return escapeControls(s.replace(/[\r\n\t]+/g, " "));
}

/**
 * A round for people, as `show` (and `resume`) print it: every arm on a line
 * — the baseline, then each candidate with its ref and sha — its state (`in
 * play`, `dropped at pair 2: below min_effect`, `decided: …`, `winner`), its
 * improvement (positive = better) on the screen's pairs and, for the
 * screen's choice, on the confirmation's fresh pairs, its verdict, and
 * (once some candidate has one) its label, cut at 40 characters; then
 * one line naming the winner (or why there is none, or what an open round
 * measures now).
 */
export function formatRoundTable(round: RoundSummary, baseSha: string): string {
  const sha = (s: string) => s.slice(0, 12);
  const labelled = round.arms.some((a) => a.label !== "");
  const lab = (text: string) => (labelled ? [escapeControls(shorten(text, 40))] : []);
  const rows = [
    [
      "baseline",
      oneLine(round.baseRef),
      sha(baseSha),
      round.n === 0 ? "nothing complete yet" : `measured on ${pairRange(1, round.n)}`,
      "",
      "",
      "",
      ...lab(""),
    ],
    ...round.arms.map((a) => [
      a.measure,
      oneLine(a.ref),
      sha(a.sha),
      standingWords(a),
      a.screen === null ? "" : armEstimateText(a.screen),
      a.confirmation === null ? "" : armEstimateText(a.confirmation),
      armVerdictWords(a),
      ...lab(a.label),
    ]),
  ];
  const header = [
    "arm",
    "ref",
    "sha",
    "state",
    "screen (improvement)",
    "confirmation (improvement)",
    "verdict",
    ...(labelled ? ["label"] : []),
  ];
  const head = `round of ${round.arms.length} candidates against one baseline, ${
    round.n === 1 ? "1 pair" : `${round.n} pairs`
  }${round.open ? " so far" : ""}:`;
  return [head, renderColumns(header, rows, new Set()), oneLine(roundSentence(round))].join("\n") + "\n";
}
