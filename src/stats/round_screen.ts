/**
 * The screen of a round: which candidates could still win after the pairs
 * they were screened on. A screen only chooses; it never accepts, so its
 * rules carry no error guarantee and need none — the candidate it keeps is
 * judged afterwards on fresh pairs that played no part in choosing it
 * (src/verdict/round_screen_confirm.ts). What the rules decide is how often
 * the true best reaches that confirmation and what the screen costs, which
 * the round simulation measures (scripts/simulate_rounds.ts,
 * bench/round_simulation.json).
 *
 * Each candidate's improvements (candidate − baseline in the contract's
 * direction) over the same screen pairs give a mean m_k; their spread is
 * pooled over the candidates (every candidate's pairs share the baseline's
 * noise and, on a benchmark whose arms differ by a code change, about the same
 * noise of their own), so even two screen pairs of four candidates give a
 * spread with four degrees of freedom. With se = sd/√n, in this order:
 *
 * 1. a candidate with a sibling whose mean improvement is below −tolerance is
 *    dropped (`sibling`): it would be rejected at its confirmation;
 * 2. a candidate with m_k ≤ min_effect − hope·se is dropped (`hopeless`);
 * 3. the leader is the best remaining mean (the lower arm on a tie); a
 *    candidate more than reach·se behind it is dropped (`behind`): the sd of
 *    the difference of two candidates' means over n shared pairs is about the
 *    sd of one candidate's improvements over √n (the baseline cancels);
 * 4. at the end of the screen, every remaining candidate but the leader is
 *    dropped (`not-leader`).
 *
 * Without a spread (one screen pair) rules 2 and 3 cannot be judged and are
 * skipped.
 */

/** Candidates within this many standard errors of the leader are still in reach (the simulation's choice). */
export const SCREEN_REACH = 1;
/** A candidate whose mean is at or below min_effect − this many standard errors is dropped (the simulation's choice). */
export const SCREEN_HOPE = 1;

/** One candidate as the screen sees it. */
export interface ScreenInput {
  /** The arm: 1..K. */
  readonly arm: number;
  /** Its improvements over the screen pairs, pair 1 first (every candidate screened at once has the same count). */
  readonly improvements: readonly number[];
  /** The siblings whose mean improvement over these pairs is below −tolerance. */
  readonly regressedSiblings: readonly string[];
}

/** Why the screen dropped a candidate. */
export type ScreenDrop = "sibling" | "hopeless" | "behind" | "not-leader";

/** A candidate's standing after a screen step. */
export interface ScreenCall {
  readonly arm: number;
  readonly n: number;
  readonly mean: number;
  /** null: still in play (the leader, or within reach of it). */
  readonly dropped: ScreenDrop | null;
}

/** The outcome of a screen step. */
export interface Screen {
  /** The spread pooled over the candidates screened, or null without one (one pair). */
  readonly sd: number | null;
  /** Its degrees of freedom: Σ (n − 1) over the candidates. */
  readonly df: number;
  /** The standard error sd/√n of one candidate's mean (and of a difference of two), or null. */
  readonly se: number | null;
  /** The best remaining candidate, or null when every one was dropped. */
  readonly leader: number | null;
  readonly calls: readonly ScreenCall[];
}

/** The tuning of the screen; only the simulation changes it. */
export interface ScreenRules {
  readonly reach: number;
  readonly hope: number;
}

/** The rules as the code ships them. */
export const SCREEN_RULES: ScreenRules = { reach: SCREEN_REACH, hope: SCREEN_HOPE };

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/**
 * One screen step over candidates screened on the same pairs: rules 1–3, and
 * rule 4 too when `last` (the end of the screen). Refuses an empty list or
 * candidates with different pair counts (a caller bug).
 */
export function screenCandidates(
  inputs: readonly ScreenInput[],
  minEffect: number,
  last: boolean,
  rules: ScreenRules = SCREEN_RULES,
): Screen {
  const n = inputs[0]?.improvements.length ?? 0;
  if (n === 0 || inputs.some((c) => c.improvements.length !== n)) {
    throw new RangeError(`screenCandidates() needs candidates screened on the same pairs, at least one`);
  }
  const means = inputs.map((c) => mean(c.improvements));
  let squares = 0;
  inputs.forEach((c, i) => c.improvements.forEach((d) => (squares += (d - means[i]!) ** 2)));
  const df = inputs.length * (n - 1);
  const sd = df > 0 ? Math.sqrt(squares / df) : null;
  const se = sd === null ? null : sd / Math.sqrt(n);
  const drop: (ScreenDrop | null)[] = inputs.map((c, i) => {
    if (c.regressedSiblings.length > 0) return "sibling";
    if (se !== null && means[i]! <= minEffect - rules.hope * se) return "hopeless";
    return null;
  });
  let lead = -1;
  inputs.forEach((_, i) => {
    if (drop[i] === null && (lead < 0 || means[i]! > means[lead]!)) lead = i;
  });
  if (lead >= 0) {
    inputs.forEach((_, i) => {
      if (drop[i] !== null || i === lead) return;
      if (se !== null && means[lead]! - means[i]! > rules.reach * se) drop[i] = "behind";
      else if (last) drop[i] = "not-leader";
    });
  }
  return {
    sd,
    df,
    se,
    leader: lead >= 0 ? inputs[lead]!.arm : null,
    calls: inputs.map((c, i) => ({ arm: c.arm, n, mean: means[i]!, dropped: drop[i]! })),
  };
}
