import type { Contract } from "../contract/contract.ts";
import { BASE_ARM, benchmarkName } from "../measure/measure_name.ts";
import { FUTILITY_POWER, isFutile } from "../stats/futility.ts";
import { improvement } from "../stats/improvement.ts";
import { judgeLook, type LookOutcome, siblingCall, type Verdict } from "../stats/look_rule.ts";
import { equivalentLevel, type Family, familyCritical, simultaneousLook } from "../stats/round_simultaneous.ts";
import { designOf, finalLook, lookAt, nextBatch, SPENDING_POWER } from "../stats/sequential.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";
import type { Estimate, PairedValues, SiblingEstimate } from "./decide.ts";
import type { CandidateCall, LeftBecause, RoundDecision, RoundNext, RoundOptions } from "./round.ts";
import { candidateName, capitalized, guaranteeClause } from "./round_reasons.ts";
import { decideScreenConfirm, planScreenConfirm } from "./round_screen_confirm.ts";
import { comparedSeries, readRoundSeries, roundInterval, valuesAndDeltas } from "./round_series.ts";

/**
 * The simultaneous round procedures the simulation compares with
 * screen-then-confirm (scripts/simulate_rounds.ts): every candidate on every
 * pair of the contract's schedule until it is dropped, each look judged by
 * src/stats/round_simultaneous.ts (Holm–Bonferroni or step-down Dunnett over
 * all K, Hsu-style drops), then each candidate by the single run's look rule
 * (src/stats/look_rule.ts: siblings, reject, futility at its simultaneous
 * level). The round ends at the first look that accepts a candidate (the
 * winner: the accepted one with the best mean) or when none is left in play.
 * A round of one is `decideLook`.
 */

/** The first batch: the contract's first look, every candidate. */
export function planSimultaneous(contract: Contract, k: number): RoundNext {
  if (k === 1) return planScreenConfirm(contract, 1);
  const arms = Array.from({ length: k }, (_, i) => i + 1);
  const first = designOf(contract).looks[0]!.n;
  return { kind: "more", pairs: first, firstPair: 1, arms, stage: "simultaneous", fresh: false };
}

interface ArmState {
  verdict: Verdict;
  because: LeftBecause | null;
  pairs: number;
  estimate: Estimate | null;
  siblings: Record<string, SiblingEstimate>;
}

/** Decides a round of k candidates by a simultaneous procedure. */
export function decideSimultaneous(
  contract: Contract,
  k: number,
  values: PairedValues,
  family: Family,
  options: RoundOptions,
): RoundDecision {
  if (k === 1) return { ...decideScreenConfirm(contract, 1, values, options), procedure: family };
  // the simulation's alternatives judge absolute thresholds and command siblings only
  if (
    contract.guards.length > 0 || contract.minEffectScale === "relative" ||
    contract.siblings.some((s) => s.toleranceScale === "relative")
  ) {
    throw new RangeError(`The ${family} procedure judges absolute thresholds and siblings only (no guards)`);
  }
  const rho = options.decide?.spendingPower ?? SPENDING_POWER;
  const futilityPower = options.decide?.futilityPower ?? FUTILITY_POWER;
  const design = designOf(contract, rho);
  const series = readRoundSeries(contract, k, values);
  const n = series.arms[BASE_ARM]!.bench.length;
  lookAt(design, n);
  const last = finalLook(design);
  const lastDf = Math.max(1, last.n - 1);
  const lastLevel = last.level === null
    ? contract.confidence
    : equivalentLevel(familyCritical(family, k, (1 - last.level) / 2, lastDf), lastDf);
  const states = new Map<number, ArmState>();
  for (let a = 1; a <= k; a++) {
    states.set(a, { verdict: "inconclusive", because: null, pairs: 0, estimate: null, siblings: {} });
  }
  let inPlay = [...states.keys()];
  let winner: number | null = null;
  let ended = false;
  let method = "";
  for (const look of design.looks.filter((l) => l.n <= n)) {
    if (ended) throw new RangeError(`Cannot decide a round at ${n} pairs: it ended at an earlier look`);
    for (const a of inPlay) {
      const got = series.arms[a]!.bench.length;
      if (got < look.n) {
        throw new TypeError(
          `Cannot decide: measure "${benchmarkName(a)}" has ${got} values; the round measures it on pairs 1–${look.n}`,
        );
      }
      states.get(a)!.pairs = look.n;
    }
    if (look.level === null) continue; // one pair of a sequential design: no spread, only continue
    const base = series.arms[BASE_ARM]!.bench;
    const inputs = inPlay.map((arm) => {
      roundInterval(comparedSeries(contract, series, arm, null, 0, look.n), contract.confidence, 0);
      const cand = series.arms[arm]!.bench;
      return { arm, improvements: base.slice(0, look.n).map((b, p) => improvement(contract.direction, b, cand[p]!)) };
    });
    const calls = simultaneousLook(family, inputs, k, 1 - look.level, contract.minEffect);
    const level = calls[0]!.interval.level;
    method = `${family === "bonferroni" ? "Holm–Bonferroni" : "step-down Dunnett (correlation 1/2)"} over ${k} ` +
      `candidates, look ${look.index} of ${design.looks.length}, simultaneous ${formatPercent(level)} intervals`;
    const outcomes = new Map<number, LookOutcome>();
    for (const c of calls) {
      const s = states.get(c.arm)!;
      const sibs = contract.siblings.map((sib, i) => {
        const iv = roundInterval(comparedSeries(contract, series, c.arm, i, 0, look.n), level, 0);
        const standing = siblingCall(iv, sib.tolerance);
        s.siblings[sib.name] = { ...estimateOf(iv, method), standing };
        return standing;
      });
      s.estimate = estimateOf(c.interval, method);
      outcomes.set(
        c.arm,
        judgeLook({
          firstPairOnly: false,
          batch: nextBatch(design, look.n),
          benchmark: c.clears ? "accept" : c.interval.upper <= 0 ? "reject" : "inconclusive",
          mean: c.interval.mean,
          siblings: sibs,
          futile: () => isFutile(c.interval, last.n, lastLevel, contract.minEffect, futilityPower),
        }),
      );
    }
    const accepted = calls.filter((c) => outcomes.get(c.arm)!.kind === "accepted");
    if (accepted.length > 0) {
      winner = accepted.reduce((a, b) => (b.interval.mean > a.interval.mean ? b : a)).arm;
      ended = true;
    }
    const still: number[] = [];
    for (const c of calls) {
      const o = outcomes.get(c.arm)!;
      const s = states.get(c.arm)!;
      if (o.next === 0 || o.kind === "accepted") {
        s.verdict = o.verdict;
        s.because = o.kind;
      } else if (ended) s.because = "another-won";
      else if (c.dominated) s.because = "dominated";
      else still.push(c.arm);
    }
    inPlay = still;
    if (inPlay.length === 0) ended = true;
  }
  for (let a = 1; a <= k; a++) {
    const got = series.arms[a]!.bench.length;
    const want = states.get(a)!.pairs;
    if (got !== want) {
      throw new TypeError(
        `Cannot decide: measure "${benchmarkName(a)}" has ${got} values; the round measured it on pairs 1–${want}`,
      );
    }
  }
  const batch = nextBatch(design, n);
  const next: RoundNext = ended || batch === 0
    ? { kind: "final" }
    : { kind: "more", pairs: batch, firstPair: n + 1, arms: inPlay, stage: "simultaneous", fresh: false };
  const calls: CandidateCall[] = [...states.entries()].map(([arm, s]) => ({
    arm,
    verdict: s.verdict,
    standing: s.because === null
      ? "in-play"
      : s.because === "dominated" || s.because === "another-won"
      ? "dropped"
      : "decided",
    because: s.because,
    pairs: s.pairs,
    screen: null,
    estimate: s.estimate,
    siblings: s.siblings,
    reason: callReason(arm, s, contract),
  }));
  const w = winner === null ? null : states.get(winner)!;
  const verdict: Verdict = w !== null
    ? "accept"
    : calls.every((c) => c.verdict === "reject")
    ? "reject"
    : "inconclusive";
  const head = `A simultaneous round of ${k} candidates against one baseline (${method || "no look yet"}): ${
    guaranteeClause(contract)
  }.`;
  const tail = w !== null
    ? `${capitalized(candidateName(winner!))} wins the round: the accepted candidate with the best mean improvement.`
    : next.kind === "more"
    ? `Next: ${next.pairs} more pairs of ${next.arms.map(candidateName).join(", ")}.`
    : `No candidate wins the round.`;
  return {
    candidates: k,
    procedure: family,
    verdict,
    winner: w === null ? null : { arm: winner!, estimate: w.estimate!, firstPair: 1, lastPair: w.pairs },
    calls,
    next,
    ...valuesAndDeltas(contract, series),
    reasons: [head, ...calls.map((c) => c.reason), tail],
  };
}

function estimateOf(iv: { n: number; mean: number; lower: number; upper: number; level: number }, method: string) {
  return {
    n: iv.n,
    mean: iv.mean,
    lower: iv.lower,
    upper: iv.upper,
    confidence: iv.level,
    method,
    setAside: [] as readonly number[],
  };
}

function callReason(arm: number, s: ArmState, contract: Contract): string {
  const e = s.estimate;
  const facts = e === null
    ? `no interval yet over ${s.pairs} pair${s.pairs > 1 ? "s" : ""}`
    : `mean improvement ${formatStat(e.mean)} over ${e.n} pairs (${formatPercent(e.confidence)} simultaneous CI ` +
      `${formatStat(e.lower)} to ${formatStat(e.upper)})`;
  const why = s.because === null
    ? "still in play"
    : s.because === "dominated"
    ? "dropped: clearly behind the leader"
    : s.because === "another-won"
    ? "not judged further: another candidate won"
    : `${s.verdict} (${s.because}, min_effect ${formatNumber(contract.minEffect)})`;
  return `${capitalized(candidateName(arm))}: ${facts}; ${why}.`;
}
