import { siblingList, thresholdWords, type Watched } from "./reasons.ts";
import type { Contract } from "../contract/contract.ts";
import type { Screen, ScreenCall, ScreenRules } from "../stats/round_screen.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";

/**
 * The sentences of a round (round_screen_confirm.ts reaches it): the round's
 * own, with its guarantee; one per screen step; and what comes next. A
 * confirmation's sentences are `decideLook`'s, word for word, after the one
 * that says which pairs it rests on.
 */

/** `candidate 3`. */
export function candidateName(arm: number): string {
  return `candidate ${arm}`;
}

/** `pairs 3–6`, `pair 3`. */
export function pairRange(first: number, last: number): string {
  return first === last ? `pair ${first}` : `pairs ${first}–${last}`;
}

/** `candidates 1, 3 and 4`, `candidate 2`. */
function candidateList(arms: readonly number[]): string {
  if (arms.length === 1) return candidateName(arms[0]!);
  return `candidates ${arms.slice(0, -1).join(", ")} and ${arms[arms.length - 1]}`;
}

/** The guarantee in words, with the contract's numbers. */
export function guaranteeClause(contract: Contract): string {
  const bound = formatPercent((1 - contract.confidence) / 2);
  return `the chance that a round names a winner that does not improve by more than min_effect ` +
    `${thresholdWords(contract.minEffect, contract.minEffectScale)} is at most ${bound}, whatever the true effects`;
}

/** The round's first sentence. */
export function roundReason(contract: Contract, k: number): string {
  return `A round of ${k} candidates against one baseline, screened then confirmed: the screen chooses at most ` +
    `one candidate, which is then judged on fresh pairs alone as a single candidate is, so ${
      guaranteeClause(contract)
    }.`;
}

/** Why the screen dropped a candidate, in words (after its mean). */
function dropWords(
  c: ScreenCall,
  screen: Screen,
  rules: ScreenRules,
  minEffect: string,
  siblings: readonly Watched[],
): string {
  const se = screen.se === null ? "" : formatStat(screen.se);
  switch (c.dropped) {
    case "sibling":
      return `${siblingList(siblings)} worse than tolerance`;
    case "hopeless":
      return `at or below min_effect ${minEffect} less ${formatNumber(rules.hope)} se (${se})`;
    case "behind":
      return `more than ${formatNumber(rules.reach)} se (${se}) behind the leader`;
    default:
      return `not the leader at the end of the screen`;
  }
}

/** min_effect as the screen compares it: the number, or for a relative one log(1 + f) beside its words. */
function screenThreshold(contract: Contract): string {
  if (contract.minEffectScale === "absolute") return formatNumber(contract.minEffect);
  return `${formatNumber(contract.minEffect * 100)}% (log ratio ${formatStat(Math.log1p(contract.minEffect))})`;
}

/** `Candidate 3`: a name that starts a sentence. */
export function capitalized(text: string): string {
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

/**
 * One screen step's sentence: who leads, who is still in reach, who was
 * dropped and why. `regressed` names each candidate's siblings beyond tolerance.
 */
export function screenReason(
  contract: Contract,
  screen: Screen,
  firstPair: number,
  lastPair: number,
  rules: ScreenRules,
  regressed: ReadonlyMap<number, readonly Watched[]>,
): string {
  const arms = screen.calls.map((c) => c.arm);
  const spread = screen.sd === null
    ? "one pair each: no spread, so only the siblings, the guards and the ranking count"
    : `pooled sd ${formatStat(screen.sd)}, se ${formatStat(screen.se!)} per mean`;
  const logs = contract.minEffectScale === "relative" ? "; means of the log ratio, as min_effect is relative" : "";
  const head = `Screen on ${pairRange(firstPair, lastPair)} of ${candidateList(arms)} (${spread}${logs})`;
  const lead = screen.calls.find((c) => c.arm === screen.leader);
  const reach = screen.calls.filter((c) => c.dropped === null && c.arm !== screen.leader);
  const dropped = screen.calls.filter((c) => c.dropped !== null);
  const parts: string[] = [];
  if (lead === undefined) parts.push("no candidate is left, so the round ends without a winner");
  else parts.push(`${candidateName(lead.arm)} leads with a mean improvement of ${formatStat(lead.mean)}`);
  if (reach.length > 0) {
    parts.push(
      `still in reach of it: ${reach.map((c) => `${candidateName(c.arm)} (${formatStat(c.mean)})`).join(", ")}`,
    );
  }
  if (dropped.length > 0) {
    const why = dropped.map((c) =>
      `${candidateName(c.arm)} (mean ${formatStat(c.mean)}, ${
        dropWords(c, screen, rules, screenThreshold(contract), regressed.get(c.arm) ?? [])
      })`
    );
    parts.push(`dropped: ${why.join(", ")}`);
  }
  return `${head}: ${parts.join("; ")}.`;
}

/** The sentence of a screen look that asks for more pairs. */
export function nextScreenReason(arms: readonly number[], firstPair: number, pairs: number): string {
  return `Next: ${pairRange(firstPair, firstPair + pairs - 1)} screen ${candidateList(arms)}.`;
}

/** The sentence of the look that sends the leader to its confirmation. */
export function nextConfirmReason(arm: number, firstPair: number, pairs: number): string {
  return `Next: ${candidateName(arm)} alone is measured with the baseline on ${pairs} fresh pair${
    pairs > 1 ? "s" : ""
  } (${pairRange(firstPair, firstPair + pairs - 1)}), the first batch of its confirmation.`;
}

/** The sentence before a confirmation's own (`decideLook`'s). */
export function confirmReason(arm: number, screenEnd: number, n: number, won: boolean): string {
  const on = `${pairRange(screenEnd + 1, n)} alone (fresh seeds that did not choose it)`;
  return won
    ? `${capitalized(candidateName(arm))} wins the round: chosen by the screen on ${
      pairRange(1, screenEnd)
    }, it was confirmed ` +
      `on ${on}, and its interval below is theirs.`
    : `${capitalized(candidateName(arm))}, chosen by the screen on ${pairRange(1, screenEnd)}, is judged on ${on}:`;
}

/** A dropped or screened candidate's own sentence. */
export function screenCallReason(
  c: ScreenCall,
  screen: Screen,
  rules: ScreenRules,
  contract: Contract,
  regressed: readonly Watched[],
): string {
  const minEffect = screenThreshold(contract);
  const of = contract.minEffectScale === "relative" ? " (log ratio)" : "";
  const facts = `mean improvement${of} ${formatStat(c.mean)} over ${c.n} screen pair${c.n > 1 ? "s" : ""}`;
  if (c.dropped === null) {
    return c.arm === screen.leader ? `Leads the screen: ${facts}.` : `In reach of the leader: ${facts}.`;
  }
  return `Dropped by the screen: ${facts}, ${dropWords(c, screen, rules, minEffect, regressed)}.`;
}
