import { BASE_ARM, benchmarkName, parseMeasureName, siblingName } from "../measure/measure_name.ts";
import {
  armCells,
  armDifferenceCells,
  armVerdictWords,
  backendWords,
  betterWords,
  estimateCells,
  formatDuration,
  formatRelative,
  formatTime,
  formatValue,
  minEffectText,
  outcome,
  shortSha,
} from "./format.ts";
import { mdCell, mdCode, mdPipes, mdTable, mdText, unitWords } from "./markdown_escape.ts";
import type { RunSummary } from "./model.ts";
import { crashMarkdown } from "./crash_section.ts";
import { type ArmEstimate, pairRange, type RoundArm, type RoundSummary, standingWords } from "./round_model.ts";
import { roundSentence, roundWhat, winnerOf } from "./round_words.ts";

/**
 * `outerloop report RUN_DIR --md` for a round (K candidates against one
 * baseline): the verdict with the winner, the sentence that names it (or
 * says why there is none), every candidate's improvement (positive =
 * better) with its interval — on the screen's pairs, and for the screen's
 * choice on the confirmation's fresh pairs — its standing and verdict, the
 * siblings of the confirmed candidate, the baseline's and every candidate's
 * value pair by pair, and the reasons.
 */

/** Whether some candidate of the round has a label. */
function labelled(round: RoundSummary): boolean {
  return round.arms.some((a) => a.label !== "");
}

/** The rows of the candidates' table: a screen row per candidate, and a confirmation row for the one that has one. */
function candidateRows(run: RunSummary, round: RoundSummary): string[][] {
  // a label column once some candidate has one
  const lab = (a: RoundArm) => (labelled(round) ? [mdCell(a.label)] : []);
  const row = (a: RoundArm, stage: "screen" | "confirmation", e: ArmEstimate) => {
    const imp = armCells(e);
    const name = `${mdCode(a.measure)}${a.winner && stage === "confirmation" ? " **(winner)**" : ""}`;
    return [
      mdPipes(name),
      mdPipes(mdCode(a.ref)),
      mdCode(shortSha(a.sha)),
      mdCell(standingWords(a)),
      mdCell(armVerdictWords(a)),
      stage,
      pairRange(e.firstPair, e.lastPair),
      imp.mean,
      imp.interval,
      armDifferenceCells(e, run.direction).mean,
      ...lab(a),
    ];
  };
  return round.arms.flatMap((a) => {
    const rows: string[][] = [];
    if (a.screen !== null) rows.push(row(a, "screen", a.screen));
    if (a.confirmation !== null) rows.push(row(a, "confirmation", a.confirmation));
    if (rows.length === 0) {
      rows.push([
        mdPipes(mdCode(a.measure)),
        mdPipes(mdCode(a.ref)),
        mdCode(shortSha(a.sha)),
        mdCell(standingWords(a)),
        mdCell(armVerdictWords(a)),
        "",
        "",
        "",
        "",
        "",
        ...lab(a),
      ]);
    }
    return rows;
  });
}

/** The values of one benchmark (the climbed one, or a sibling) pair by pair: the baseline and every candidate. */
function valuesTable(run: RunSummary, round: RoundSummary, sibling: string | null): string {
  const name = (arm: number, pair: number) =>
    sibling === null ? benchmarkName(arm, pair) : siblingName(sibling, arm, pair);
  const rows: string[][] = [];
  for (let pair = 1;; pair++) {
    const base = run.values[name(BASE_ARM, pair)];
    if (base === undefined) break;
    rows.push([String(pair), formatValue(base), ...round.arms.map((a) => formatValue(run.values[name(a.arm, pair)]))]);
  }
  if (rows.length === 0) return "";
  const header = ["pair", "baseline", ...round.arms.map((a) => mdPipes(mdCode(a.measure)))];
  return mdTable(header, rows, new Set(header.map((_, i) => i).filter((i) => i > 0)));
}

/** The siblings (or the guards) of each candidate that has a confirmation, on its pairs: "" when none. */
function siblingsTable(round: RoundSummary, kind: "sibling" | "guard" = "sibling"): string {
  const rows = round.arms.flatMap((a) =>
    (kind === "sibling" ? a.siblings : a.guards ?? []).map((s) => {
      const c = estimateCells(s.estimate.mean, s.estimate.interval);
      return [mdPipes(mdCode(a.measure)), mdPipes(mdCode(s.name)), s.standing, c.mean, c.interval];
    })
  );
  if (rows.length === 0) return "";
  const header = ["candidate", kind, "standing", "improvement (positive = better)", "improvement interval"];
  const what = kind === "sibling" ? "Siblings" : "Guards (read from the benchmark's own result)";
  return `${what}, on each confirmed candidate's confirmation pairs:\n\n` + mdTable(header, rows, new Set([3]));
}

/** One round as Markdown. */
export function roundMarkdown(run: RunSummary): string {
  const round = run.round!;
  const w = winnerOf(round);
  const verdict = run.verdict === null
    ? run.state
    : `${outcome(run)}, ${w === undefined ? "no winner" : `winner ${mdCode(w.measure)}`}`;
  const relative = formatRelative(run.relative, run.direction, run.unit);
  const out = [
    `### ${mdCode(run.benchmark)}: ${verdict}${relative === "" ? "" : `, ${relative}`} (a round of ${
      roundWhat(round)
    })`,
    "",
    `Metric ${mdCode(run.metric)}${unitWords(run)} (${betterWords(run.direction)}), min_effect ${
      minEffectText(run)
    }. ` +
    `Run ${mdCode(run.tag)} (${backendWords(run.backend)}): base ${mdCode(shortSha(run.baseSha))} (${
      mdCode(round.baseRef)
    }) against ` +
    `${roundWhat(round)}, created ${formatTime(run.createdAt)} UTC` +
    (run.wallSeconds === null
      ? ""
      : `, ${run.decidedAt === null ? "stopped" : "decided"} after ${formatDuration(run.wallSeconds)}`) +
    ".",
  ];
  if (run.disputes.length > 0) {
    out.push(
      "",
      `**Disputed:** decision.json does not follow from the results beside it: ${mdText(run.disputes.join("; "))}.`,
    );
  }
  if (run.failure !== null && run.failure !== "") out.push("", `**Failed:** ${mdText(run.failure)}`);
  out.push(...crashMarkdown(run));
  const sentence = roundSentence(round);
  out.push("", `**${mdText(sentence.charAt(0).toUpperCase() + sentence.slice(1))}.**`);
  const header = [
    "candidate",
    "ref",
    "sha",
    "state",
    "verdict",
    "estimate",
    "pairs",
    "improvement (positive = better)",
    "improvement interval",
    "difference (candidate − baseline)",
    ...(labelled(round) ? ["label"] : []),
  ];
  out.push("", mdTable(header, candidateRows(run, round), new Set([7, 9])));
  const sibs = siblingsTable(round);
  if (sibs !== "") out.push("", sibs);
  const guards = siblingsTable(round, "guard");
  if (guards !== "") out.push("", guards);
  const values = valuesTable(run, round, null);
  if (values !== "") {
    out.push(
      "",
      `Values of ${mdCode(run.benchmark)}, pair by pair (the baseline and each candidate measured on it):`,
      "",
      values,
    );
  }
  const siblings = [...new Set(Object.keys(run.values).flatMap((k) => parseMeasureName(k)?.sibling ?? []))];
  for (const s of siblings) {
    const t = valuesTable(run, round, s);
    if (t !== "") out.push("", `Values of sibling ${mdCode(s)}:`, "", t);
  }
  if (run.reasons.length > 0) out.push("", ...run.reasons.map((reason) => `- ${mdText(reason)}`));
  return out.join("\n") + "\n";
}
