import type { Contract } from "../contract/contract.ts";
import type { LookKind, Verdict } from "../stats/look_rule.ts";
import type { ScreenDrop, ScreenRules } from "../stats/round_screen.ts";
import { type DecideOptions, type Estimate, type PairedValues, type SiblingEstimate } from "./decide.ts";
import type { CandidateVerdict } from "./crashed.ts";
import { decideScreenConfirmWithCrashes, planScreenConfirm } from "./round_screen_confirm.ts";
import { decideSimultaneous, planSimultaneous } from "./round_simultaneous.ts";

/**
 * The verdict of a round: K candidates measured against one baseline, the
 * baseline once per pair and every candidate still in play on the same seed
 * (common random numbers across all K + 1 arms), so a look costs
 * n·(1 + candidates in play) measures instead of 2·n per candidate. A pure
 * function of the contract, K and the measured values, like `decideLook`,
 * which a round of one candidate is exactly (same verdict, numbers and
 * sentences).
 *
 * The procedure (the simulation's choice, scripts/simulate_rounds.ts and
 * bench/round_simulation.json): **screen, then confirm on fresh seeds**
 * (drop-the-losers: Sampson & Sill 2005; Stallard & Todd 2003).
 *
 * 1. Screen: the first ⌈repeats/2⌉ pairs measure every candidate; the screen
 *    (src/stats/round_screen.ts) drops candidates that cannot win — a sibling
 *    beyond its tolerance, a mean too far below min_effect, or too far behind
 *    the leader. When more than one is left, the rest of the first batch
 *    (⌊repeats/2⌋ pairs) measures those, and every one but the leader is dropped.
 * 2. Confirm: the leader alone is measured against the baseline on the pairs
 *    after the screen — fresh seeds, which played no part in choosing it — and
 *    judged on those pairs alone exactly as `decideLook` judges a single
 *    candidate: the contract's repeats, max_repeats, confidence, sequential
 *    looks, futility and siblings. Its accept names the round's winner.
 *
 * **The guarantee**: whatever the true effects — no effect anywhere, or good
 * candidates beside ones that do not improve — the chance that a round names
 * a winner whose true improvement is at most min_effect is at most
 * (1 − confidence)/2. The winner is the confirmed candidate W; given the
 * screen, W is fixed and the confirmation's pairs are independent of the
 * screen's, so a W with no real improvement is accepted with probability at
 * most (1 − confidence)/2 (the guarantee of a single run, src/stats/sequential.ts),
 * whichever W the screen chose. The winner's interval is the confirmation's,
 * computed on pairs that did not select it, so it is not inflated by the
 * choice (the winner's curse). A dropped candidate is measured no more.
 *
 * Between looks the pass measures what `next` says: `pairs` more pairs from
 * `firstPair`, the baseline and the candidates `arms` on each, on new seeds;
 * when `fresh`, the batch confirms the screen's choice, and none of its seeds
 * or values may come from the screen. The round's pairs run past max_repeats
 * by the screen's: at most repeats + max_repeats.
 *
 * The simultaneous procedures the simulation compared (every candidate on
 * every pair until dropped, each look's α shared by the K candidates with
 * Holm–Bonferroni or a step-down Dunnett at correlation ½, Hsu-style drops of
 * candidates clearly behind the leader; src/verdict/round_simultaneous.ts)
 * stay selectable for the simulation. Both found the true best less often
 * (49–84% against 88–90% where a single run has 90% power) for about as many
 * measures, and the Dunnett one broke the guarantee (3.9% false winners at
 * K = 16 with every candidate at min_effect): each candidate's t has its own
 * variance estimate, not the one shared variance Dunnett's law assumes.
 */

/** How a round decides; "screen-confirm" is the shipped procedure. */
export type RoundProcedure = "screen-confirm" | "bonferroni" | "dunnett";

/** The procedure `decideRound` uses by default. */
export const ROUND_PROCEDURE: RoundProcedure = "screen-confirm";

/**
 * The candidates whose eval crashed, by arm: the pair whose measure crashed
 * and the cause. A crashed arm's series hold its pairs before the crash
 * (pair − 1 values each).
 */
export type CrashedArms = ReadonlyMap<
  number,
  // measure: the one that crashed (a sibling's side too); the arm's benchmark measure of that pair when not given
  { readonly pair: number; readonly cause: string; readonly measure?: string }
>;

/** Tuning; only the simulation changes these. */
export interface RoundOptions {
  /** Default `ROUND_PROCEDURE`. */
  readonly procedure?: RoundProcedure;
  /** The screen's rules (src/stats/round_screen.ts `SCREEN_RULES`). */
  readonly screen?: ScreenRules;
  /** The sequential rule's tuning, as `decideLook` takes it. */
  readonly decide?: DecideOptions;
}

/** Which part of the round a batch serves. */
export type RoundStage = "screen" | "confirm" | "simultaneous";

/** What to measure next. */
export type RoundNext =
  | { readonly kind: "final" }
  | {
    readonly kind: "more";
    /** How many pairs to add. */
    readonly pairs: number;
    /** The first new pair's number (1-based): the pairs are firstPair..firstPair + pairs − 1. */
    readonly firstPair: number;
    /** The candidates to measure on each new pair, beside the baseline; every other candidate is measured no more. */
    readonly arms: readonly number[];
    readonly stage: RoundStage;
    /**
     * The batch confirms the candidate a screen chose: its seeds must be new
     * to the round (no screen pair's) and no screen measure may stand in for
     * one of its measures. The guarantee rests on it.
     */
    readonly fresh: boolean;
  };

/** Where a candidate stands after the look. */
export type Standing = "in-play" | "dropped" | "decided";

/** Why a candidate left play: a screen rule, the look rule's kind, another candidate's win, or its own crash. */
export type LeftBecause = ScreenDrop | LookKind | "dominated" | "another-won" | "crashed";

/** One candidate's standing, verdict and numbers after the look. */
export interface CandidateCall {
  /** 1..K. */
  readonly arm: number;
  /** Accept only for the winner; provisional (inconclusive) while in play. */
  readonly verdict: Verdict;
  readonly standing: Standing;
  /** Why it left play; null while in play. */
  readonly because: LeftBecause | null;
  /** The pairs it was measured on: 1..pairs. */
  readonly pairs: number;
  /** Its screen estimate (descriptive: a screen chooses, it does not decide); null in a simultaneous round. */
  readonly screen: Estimate | null;
  /** The estimate its verdict rests on: its confirmation's, or the simultaneous one; null before it has one. */
  readonly estimate: Estimate | null;
  /** The siblings' estimates over the same pairs as `estimate`. */
  readonly siblings: Readonly<Record<string, SiblingEstimate>>;
  /** The guards' estimates over the same pairs, by metric (a confirmation's); absent or empty before one. */
  readonly guards?: Readonly<Record<string, SiblingEstimate>>;
  /** One sentence with the numbers. */
  readonly reason: string;
}

/** A candidate's call in a round that may have crashed candidates: verdict "crashed" for those. */
export type CallWithCrashes = Omit<CandidateCall, "verdict"> & { readonly verdict: CandidateVerdict };

/**
 * A round's decision given crashed candidates: the verdict is "crashed" when
 * every candidate crashed, reject when every candidate was rejected or
 * crashed (at least one rejected), accept with a winner, else inconclusive.
 */
export type RoundDecisionWithCrashes = Omit<RoundDecision, "verdict" | "calls"> & {
  readonly verdict: CandidateVerdict;
  readonly calls: readonly CallWithCrashes[];
};

/** The round's winner: the accepted candidate with the best improvement. */
export interface RoundWinner {
  readonly arm: number;
  /** Its estimate on pairs that did not choose it (a simultaneous round: its simultaneous interval). */
  readonly estimate: Estimate;
  /** The pairs that estimate rests on. */
  readonly firstPair: number;
  readonly lastPair: number;
}

/** The decision of a look of a round. */
export interface RoundDecision {
  /** K. */
  readonly candidates: number;
  readonly procedure: RoundProcedure;
  /** accept: a winner; reject: every candidate rejected; else inconclusive (always, while `next` is "more"). */
  readonly verdict: Verdict;
  readonly winner: RoundWinner | null;
  /** One per candidate, arm 1 first. */
  readonly calls: readonly CandidateCall[];
  readonly next: RoundNext;
  /** Every measure's value by measure name (`candidate-2#3`, …). */
  readonly values: Readonly<Record<string, number>>;
  /** Candidate minus baseline per candidate and pair, keyed by the candidate's measure name. */
  readonly deltas: Readonly<Record<string, number>>;
  /** Sentences with the numbers: the round, the screen, then the confirmation's (a round of one: `decideLook`'s own). */
  readonly reasons: readonly string[];
}

function checkK(k: number): void {
  if (!(Number.isInteger(k) && k >= 1)) {
    throw new RangeError(`A round needs a whole number of candidates >= 1, got ${k}`);
  }
}

/**
 * What a round measures first: the screen's first pairs of every candidate
 * (a round of one: the contract's first batch, as a single run's).
 */
export function planRound(contract: Contract, k: number, options: RoundOptions = {}): RoundNext {
  checkK(k);
  const procedure = options.procedure ?? ROUND_PROCEDURE;
  return procedure === "screen-confirm" ? planScreenConfirm(contract, k) : planSimultaneous(contract, k);
}

/**
 * Decides the look the values reach (a candidate's values for the pairs it was
 * measured on, pair 1 first, by measure name; see `readRoundSeries`). The
 * values must be exactly what the round's earlier looks asked for; anything
 * else is a `RangeError` or `TypeError` naming the measure (a caller bug).
 */
export function decideRound(contract: Contract, k: number, values: PairedValues, options?: RoundOptions): RoundDecision;
/**
 * With crashed candidates (`crashed`): a crashed arm leaves play at once —
 * standing `dropped`, because `crashed`, verdict "crashed" — with its pairs
 * before the crash kept, and the others go on exactly as if the screen had
 * dropped it: a screen look leaves it out of the candidates it compares (and
 * of the leader's choice), and a crash of the confirmed candidate ends the
 * round without a winner.
 *
 * The guarantee still holds: a crash is the candidate's own event (its code
 * broke), not a function of any other arm's values, so leaving the arm out
 * is one more way the screen's choice can fall, and the guarantee holds
 * whichever candidate the screen chooses; the chosen one is still judged on
 * fresh pairs that played no part in choosing it, and a crashed one is never
 * named a winner. Only the screen-confirm procedure takes crashes.
 */
export function decideRound(
  contract: Contract,
  k: number,
  values: PairedValues,
  options: RoundOptions & { readonly crashed: CrashedArms },
): RoundDecisionWithCrashes;
export function decideRound(
  contract: Contract,
  k: number,
  values: PairedValues,
  options: RoundOptions & { readonly crashed?: CrashedArms } = {},
): RoundDecision | RoundDecisionWithCrashes {
  checkK(k);
  const procedure = options.procedure ?? ROUND_PROCEDURE;
  if (options.crashed !== undefined && options.crashed.size > 0 && procedure !== "screen-confirm") {
    throw new RangeError(`Only the screen-confirm procedure takes crashed candidates, not ${procedure}`);
  }
  return procedure === "screen-confirm"
    ? decideScreenConfirmWithCrashes(contract, k, values, options, options.crashed ?? new Map())
    : decideSimultaneous(contract, k, values, procedure, options);
}
