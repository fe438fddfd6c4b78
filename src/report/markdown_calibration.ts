import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { formatDuration } from "../text/duration.ts";
import { backendWords, betterWords, formatTime, formatValue, shortSha } from "./format.ts";
import { mdCode, mdTable, mdText, unitWords } from "./markdown_escape.ts";
import type { RunSummary } from "./model.ts";
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

/**
 * `outerloop report RUN_DIR --md` of a calibration (`outerloop calibrate`:
 * the base tree against itself): what it found about the benchmark's noise,
 * never a min_effect the contract had before — the bias warning first when
 * the A/A interval excludes 0, each A/A pair's improvement (the second
 * measure over the first) with the mean, sd and interval against 0, each
 * sibling's spread, the power table of fixed designs, the suggested contract
 * keys ready to paste and the sentence of how they were derived. A
 * calibration still measuring says so and lists what it has.
 */
export function calibrationMarkdown(r: RunSummary): string {
  const c = r.calibration ?? null;
  const out = [
    `### ${mdCode(r.benchmark)}: ${c === null ? r.state : c.biased ? "calibrated (biased)" : "calibrated"}`,
    "",
    `Calibration of metric ${mdCode(r.metric)}${unitWords(r)} (${betterWords(r.direction)}): the base ${
      mdCode(shortSha(r.baseSha))
    } measured against itself. Run ${mdCode(r.tag)} (${backendWords(r.backend)}), created ${
      formatTime(r.createdAt)
    } UTC` +
    (r.wallSeconds === null ? "." : `, calibrated after ${formatDuration(r.wallSeconds)}.`),
  ];
  if (r.failure !== null && r.failure !== "") out.push("", `**Failed:** ${mdText(r.failure)}`);
  if (c === null) {
    out.push("", noCalibrationWords(r.state));
    return out.join("\n") + "\n";
  }
  if (c.biased) out.push("", `**Warning:** ${BIAS_WARNING}.`);
  out.push(
    "",
    mdTable(
      ["pair", "seed", "first", "second", "improvement (second over first)"],
      aaPairs(c).map((p) => [
        String(p.pair),
        p.seed === null ? "" : String(p.seed),
        formatValue(p.first),
        formatValue(p.second),
        signedStat(p.improvement),
      ]),
      new Set([0, 1, 2, 3, 4]),
    ),
  );
  out.push(
    "",
    `Improvement of a pair's second measure over its first (positive = better) over ${c.n} pairs: ` +
      `mean ${signedStat(c.mean)}, sd ${stat(c.sd)}, A/A interval ${aaInterval(c)}: ${zeroWords(c)}.`,
  );
  out.push(...siblingLines(c));
  out.push("", `${powerHeading(c)}:`, "", mdTable(powerHeader(c), powerRows(c), new Set([0, 1, 2])));
  out.push("", "Suggested contract keys:", "", "```json", suggestedKeys(c), "```");
  const sibs = suggestedSiblingKeys(c);
  if (sibs.length > 0) out.push("", "Suggested sibling tolerances: " + sibs.map(mdCode).join(", ") + ".");
  out.push("", `How: ${mdText(derivationWords(c))}`);
  return out.join("\n") + "\n";
}

/** Each sibling's spread, one line each, a biased one with its warning; [] without siblings. */
function siblingLines(c: CalibrationRecord): string[] {
  const sibs = Object.entries(c.siblings);
  if (sibs.length === 0) return [];
  return [
    "",
    ...sibs.map(([name, s]) =>
      `- sibling ${mdCode(name)} (${mdCode(s.metric)}, ${betterWords(s.direction)}): mean ${signedStat(s.mean)}, ` +
      `sd ${stat(s.sd)}, A/A interval ${aaInterval({ ...s, confidence: c.confidence })}` +
      (s.biased ? " — **warning:** it excludes 0: its two sides differ systematically" : "")
    ),
  ];
}
