import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { slot } from "../measure/identity.ts";
import { BASE_ARM, benchmarkName } from "../measure/measure_name.ts";
import { type CachedBaseline, cachedBaseline } from "../plan/baseline_source.ts";
import { RoundSteps, runPlan } from "../plan/run_plan.ts";
import type { ArmEstimate, RoundArm, RoundBatchNow, RoundSummary } from "../report/round_model.ts";
import type { DecisionRecord, RoundCandidateFacts, RoundFacts } from "../rundir/decision_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { differenceOfImprovement } from "../stats/difference.ts";
import type { Estimate } from "../verdict/decide.ts";
import { planRound, type RoundDecision, type RoundNext } from "../verdict/round.ts";

/**
 * Where a round of K ≥ 2 candidates stands, the one answer `show`, `runs`,
 * the reports, `resume` and `wait` give: a decided round's is its
 * decision's (`round` in decision.json); an open round's is what its
 * complete batches decide, read from the results on disk and stepped as the
 * pass steps it (plan/run_plan.ts `RoundSteps`) — which candidates are
 * still in play, which the screen dropped and why, and the batch it measures
 * now. Never asks the scheduler.
 */

/** A round's facts (the decision's, or the open round's so far) and, while open, the batch it measures now. */
export interface RoundStanding {
  readonly facts: RoundFacts;
  /** No decision.json yet. */
  readonly open: boolean;
  /** The batch the open round measures now; null once it asks for nothing more (and for a decided round). */
  readonly next: RoundBatchNow | null;
}

/**
 * The round's standing: its decision's, or (no decision) what its complete
 * batches give from `values` — every result on disk by measure name, the
 * cached baseline's included.
 */
export function roundStanding(
  r: RunRecord,
  decision: DecisionRecord | null,
  cache: CachedBaseline,
  values: Readonly<Record<string, number>>,
): RoundStanding {
  if (decision?.round !== undefined) return { facts: decision.round, open: false, next: null };
  const steps = new RoundSteps(r, cache);
  let last: { d: RoundDecision; seeds: readonly number[] } | null = null;
  let next: RoundNext = planRound(r.contract, r.candidates.length);
  for (;;) {
    const p = steps.plan;
    if (!p.plan.every((m) => Object.hasOwn(values, m.name))) break;
    last = { d: steps.advance(values), seeds: p.seeds };
    next = last.d.next;
    if (next.kind === "final") break;
  }
  const facts: RoundFacts = {
    procedure: last?.d.procedure ?? "",
    seeds: last?.seeds ?? [],
    n: last?.seeds.length ?? 0,
    winner: null,
    candidates: r.candidates.map((c, i): RoundCandidateFacts => {
      const call = last?.d.calls[i];
      return {
        arm: i + 1,
        ref: c.ref,
        sha: c.sha,
        verdict: call?.verdict ?? "inconclusive",
        standing: call?.standing ?? "in-play",
        because: call?.because ?? null,
        pairs: call?.pairs ?? 0,
        screen: call?.screen ?? null,
        estimate: call?.estimate ?? null,
        siblings: call?.siblings ?? {},
        reason: call?.reason ?? "",
      };
    }),
  };
  const now = next.kind === "more"
    ? { stage: next.stage, firstPair: next.firstPair, lastPair: next.firstPair + next.pairs - 1, arms: next.arms }
    : null;
  return { facts, open: true, next: now };
}

/** Every result of the round's evals on disk (and the cached baseline), by measure name. */
export function roundValuesOnDisk(dir: RunDir, r: RunRecord, cache: CachedBaseline): Record<string, number> {
  const p = runPlan(r, cache).all;
  const values: Record<string, number> = { ...p.cached };
  for (const m of p.toMeasure) {
    try {
      values[m.name] = readEvalResult(dir.path, slot(r.image, m), m.metric, m.summary);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
    }
  }
  return values;
}

/** The round's standing from its run dir: the decision's, else its results on disk (and its values). */
export function readRoundStanding(
  dir: RunDir,
  r: RunRecord,
  decision: DecisionRecord | null,
): { readonly standing: RoundStanding; readonly values: Readonly<Record<string, number>> } {
  const cache = cachedBaseline(dir, r, false);
  const values = decision?.round !== undefined ? decision.values : roundValuesOnDisk(dir, r, cache);
  return { standing: roundStanding(r, decision, cache, values), values };
}

/** The round for the reports (report/round_model.ts), from its standing and the values by measure name. */
export function roundSummary(
  r: RunRecord,
  s: RoundStanding,
  values: Readonly<Record<string, number>>,
): RoundSummary {
  const direction = r.contract.direction;
  const winner = s.facts.winner?.arm ?? null;
  const arms = s.facts.candidates.map((c): RoundArm => {
    const screen = c.screen === null ? null : armEstimate(c.screen, c.arm, 1, values, direction);
    const confirmation = c.estimate === null
      ? null
      : armEstimate(c.estimate, c.arm, c.pairs - c.estimate.n + 1, values, direction);
    const settled = !s.open || c.standing === "dropped";
    return {
      arm: c.arm,
      measure: benchmarkName(c.arm),
      ref: c.ref,
      sha: c.sha,
      verdict: settled ? c.verdict : null,
      standing: c.standing,
      because: settled ? c.because : null,
      winner: c.arm === winner,
      pairs: c.pairs,
      screen,
      confirmation,
      siblings: Object.entries(c.siblings).map(([name, e]) => ({
        name,
        estimate: armEstimate(e, c.arm, c.pairs - e.n + 1, {}, direction).estimate,
        standing: e.standing,
      })),
      reason: c.reason,
    };
  });
  return { baseRef: r.baseRef, open: s.open, n: s.facts.n, winner, arms, next: s.next };
}

/**
 * An estimate of arm `arm` over the pairs from `firstPair` on: its interval
 * null for one pair (which has none), the pairs it set aside renumbered from
 * its own (a confirmation counts from its first pair) to the round's, and
 * the means of both sides over those pairs.
 */
function armEstimate(
  e: Estimate,
  arm: number,
  firstPair: number,
  values: Readonly<Record<string, number>>,
  direction: "maximize" | "minimize",
): ArmEstimate {
  const lastPair = firstPair + e.n - 1;
  const mean = (a: number) => {
    const xs: number[] = [];
    for (let p = firstPair; p <= lastPair; p++) {
      const v = values[benchmarkName(a, p)];
      if (v === undefined) return null;
      xs.push(v);
    }
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  };
  return {
    estimate: {
      n: e.n,
      mean: e.mean,
      interval: e.n < 2 ? null : { lower: e.lower, upper: e.upper, confidence: e.confidence },
      setAside: [...e.setAside].map((p) => p + firstPair - 1).sort((a, b) => a - b),
    },
    firstPair,
    lastPair,
    difference: differenceOfImprovement(direction, e.mean),
    baseline: mean(BASE_ARM),
    candidate: mean(arm),
  };
}
