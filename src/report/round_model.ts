import type { RoundBatchNow } from "../evaluation/round_standing.ts";
export type { RoundBatchNow };
import type { CrashSummary, ImprovementEstimate, ImprovementInterval, RelativeEstimate, RunVerdict } from "./model.ts";

/**
 * A round as the reports see it: K candidates measured against one shared
 * baseline (decision.json's `round`, or, while the round is open, where its
 * complete batches leave it), each candidate with its standing and the
 * estimates of its **improvement** (positive = better) the round made of it:
 * the screen's (descriptive: the screen chooses, it does not decide) and,
 * for the candidate the screen chose, the confirmation's on fresh pairs
 * (the one its verdict rests on). Pure data, built by src/views/round_view.ts.
 */

/** One estimate of a candidate's improvement, with the pairs it rests on. */
export interface ArmEstimate {
  /**
   * The improvement (positive = better); its interval is null for one pair,
   * and `setAside` names the round's own pair numbers (not the confirmation's).
   */
  readonly estimate: ImprovementEstimate;
  /** The round's pairs it rests on, first and last (1-based). */
  readonly firstPair: number;
  readonly lastPair: number;
  /** Its relative change (candidate / baseline) on the same pairs; null (or absent) for a metric that is not positive. */
  readonly relative?: RelativeEstimate | null;
  /** Its difference interval (candidate − baseline) at its level; null for one pair; absent until the views fill it. */
  readonly differenceInterval?: ImprovementInterval | null;
  /** Its mean as a difference (candidate − baseline): the mean through the direction. */
  readonly difference: number;
  /** The baseline's and the candidate's mean over those pairs; null where a value is missing. */
  readonly baseline: number | null;
  readonly candidate: number | null;
}

/** Where a candidate stands: still measured, dropped (by the screen), or decided. */
export type ArmStanding = "in-play" | "dropped" | "decided";

/** One candidate of a round. */
export interface RoundArm {
  /** 1 … K. */
  readonly arm: number;
  /** Its measure name, decision.json's key: `candidate` (arm 1), `candidate-2`, …. */
  readonly measure: string;
  readonly ref: string;
  readonly sha: string;
  /** What it tries: `--label`, else its commit's subject; "" when none is known. */
  readonly label: string;
  /** Its verdict; null while it is in play (or the round is not decided); `crashed` with `crash` saying why. */
  readonly verdict: RunVerdict;
  /** Why its eval crashed (verdict `crashed`): it left play, the others went on; null (or absent) otherwise. */
  readonly crash?: CrashSummary | null;
  readonly standing: ArmStanding;
  /** Why it left play, the decision's word (`hopeless`, `behind`, `accepted`, …); null while in play. */
  readonly because: string | null;
  /** The round's winner. */
  readonly winner: boolean;
  /** It was measured on pairs 1 … pairs (0: no batch complete yet). */
  readonly pairs: number;
  /** Its screen's estimate; null before the screen's first batch is complete. */
  readonly screen: ArmEstimate | null;
  /** Its confirmation's estimate (the screen's choice only); null for every other candidate. */
  readonly confirmation: ArmEstimate | null;
  /** Its siblings' improvement (positive = better, each in its own direction) on its confirmation's pairs; [] without one. */
  readonly siblings: readonly RoundSibling[];
  /** Its guards' improvement on the same pairs, by metric (`name`); absent for a contract without guards. */
  readonly guards?: readonly RoundSibling[];
  /** The decision's sentence about it; "" before it has one. */
  readonly reason: string;
}

/** A sibling benchmark's (or a guard metric's) estimate for a round's candidate, on the pairs of its confirmation. */
export interface RoundSibling {
  readonly name: string;
  readonly estimate: ImprovementEstimate;
  /** `held` (within its tolerance), `unsure` or `regressed`. */
  readonly standing: string;
}

/** A round of K ≥ 2 candidates. */
export interface RoundSummary {
  /** The base's ref, as the user gave it. */
  readonly baseRef: string;
  /** False once decision.json has the round; true while it is measured (or was stopped before a decision). */
  readonly open: boolean;
  /** Pairs complete: the screen's and the confirmation's. */
  readonly n: number;
  /** The winner's arm; null for none (or not yet). */
  readonly winner: number | null;
  /** Arm 1 first. */
  readonly arms: readonly RoundArm[];
  /** What an open round measures now (its batch not yet complete); null once it has asked for nothing more. */
  readonly next: RoundBatchNow | null;
}

/** The estimate shown for a candidate: its confirmation's when it has one (its verdict rests on it), else its screen's. */
export function shownEstimate(a: RoundArm): ArmEstimate | null {
  return a.confirmation ?? a.screen;
}

/** Which estimate `shownEstimate` is, in words: "confirmation" or "screen"; "" for none. */
export function shownStage(a: RoundArm): "confirmation" | "screen" | "" {
  return a.confirmation !== null ? "confirmation" : a.screen !== null ? "screen" : "";
}

/** Why a candidate left play, for people. */
const BECAUSE: Readonly<Record<string, string>> = {
  hopeless: "below min_effect",
  behind: "behind the leader",
  "not-leader": "not the leader",
  // the screen's and the look rule's "sibling" covers guards too (src/stats/round_screen.ts, look_rule.ts)
  sibling: "a sibling or guard regressed",
  dominated: "behind the leader",
  "another-won": "another candidate won",
  accepted: "accepted",
  "no-improvement": "no improvement",
  "sibling-regressed": "a sibling or guard regressed",
  "sibling-unsure": "a sibling or guard may have regressed",
  undecided: "undecided at the last look",
  futile: "stopped for futility",
  "first-pair": "one pair",
  crashed: "its eval crashed",
};

/** `because` for people: "too far below min_effect", …; the word itself when unknown, "" for none. */
export function becauseWords(because: string | null): string {
  return because === null ? "" : BECAUSE[because] ?? because;
}

/**
 * A candidate's standing in a few words: `winner`, `dropped at pair 2: too
 * far below min_effect`, `decided: no improvement`, `in play`.
 */
export function standingWords(a: RoundArm): string {
  // the winner's standing is "decided", as --json says (with `winner: true`)
  if (a.winner) return "decided: winner";
  if (a.standing === "in-play") return "in play";
  const why = becauseWords(a.because);
  // a crashed arm's pairs are those measured before it: it left play at the pair it crashed on
  if (a.verdict === "crashed") return `crashed at pair ${a.pairs + 1}`;
  if (a.standing === "dropped") return `dropped at pair ${a.pairs}${why === "" ? "" : `: ${why}`}`;
  return `decided${why === "" ? "" : `: ${why}`}`;
}

/** `pairs 3–6`, or `pair 3`. */
export function pairRange(first: number, last: number): string {
  return first === last ? `pair ${first}` : `pairs ${first}–${last}`;
}
