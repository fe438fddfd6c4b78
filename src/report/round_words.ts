import { benchmarkName } from "../measure/measure_name.ts";
import { armEstimateText, outcome, shortSha } from "./format.ts";
import type { RunSummary } from "./model.ts";
import { becauseWords, pairRange, type RoundArm, type RoundSummary, shownEstimate } from "./round_model.ts";

/**
 * The words every surface says a round in — `show`, `runs`, the Markdown and
 * the HTML report — so a round reads the same in all of them: what it is
 * (`3 candidates`), its verdict with the winner, and one sentence naming the
 * winner and the pairs its interval rests on, or saying why there is none, or
 * what an open round measures now.
 */

/** `3 candidates`. */
export function roundWhat(round: RoundSummary): string {
  return `${round.arms.length} candidates`;
}

/** A candidate as people name it: `candidate-2 (C2, 596c908d01)`. */
function armName(a: RoundArm): string {
  return `${a.measure} (${a.ref}, ${shortSha(a.sha)})`;
}

/** The round's winner, if it has one. */
export function winnerOf(round: RoundSummary): RoundArm | undefined {
  return round.arms.find((a) => a.winner);
}

/**
 * The verdict with the winner: `accept: winner candidate-2`, `reject: no
 * winner`, `accept (disputed): winner candidate-2`; "" until decided.
 */
export function roundVerdictWords(run: RunSummary): string {
  if (run.verdict === null || run.round === null) return "";
  const w = winnerOf(run.round);
  return `${outcome(run)}: ${w === undefined ? "no winner" : `winner ${w.measure}`}`;
}

/**
 * One sentence on where the round stands: the winner, its improvement
 * (positive = better) and the fresh pairs its interval rests on; or why
 * there is none — every candidate rejected, the screen's choice not
 * accepted on its confirmation, or every candidate dropped by the screen;
 * or, while open, the batch it measures now.
 */
export function roundSentence(round: RoundSummary): string {
  const w = winnerOf(round);
  if (w !== undefined) {
    const e = shownEstimate(w);
    return `winner: ${armName(w)}, improvement (positive = better) ${e === null ? "" : armEstimateText(e)}` +
      (w.screen !== null ? ", fresh pairs that did not choose it" : "");
  }
  if (round.open) {
    const n = round.n === 0 ? "no batch complete yet" : `${round.n} pair${round.n === 1 ? "" : "s"} complete`;
    const inPlay = round.arms.filter((a) => a.standing === "in-play").map((a) => a.measure);
    const now = round.next;
    if (now === null) return `open: ${n}, every pair measured; not decided yet`;
    const stage = now.stage === "confirm" ? "confirming" : now.stage === "screen" ? "screening" : "measuring";
    return `open: ${n}; in play: ${inPlay.join(", ") || "none"}; ${stage} ${
      now.arms.map((a) => benchmarkName(a)).join(", ")
    } ` +
      `on ${pairRange(now.firstPair, now.lastPair)}`;
  }
  if (round.arms.every((a) => a.verdict === "reject")) return "no winner: every candidate was rejected";
  const chosen = round.arms.find((a) => a.confirmation !== null);
  if (chosen !== undefined) {
    const why = becauseWords(chosen.because);
    return `no winner: ${armName(chosen)}, the screen's choice, was not accepted on its confirmation ` +
      `(${chosen.verdict ?? "undecided"}${why === "" ? "" : `: ${why}`}, ${armEstimateText(chosen.confirmation!)})`;
  }
  return "no winner: the screen dropped every candidate (none could still win)";
}
