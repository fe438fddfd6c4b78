import { BASE_ARM, benchmarkName } from "../measure/measure_name.ts";
import type { ArmEstimate, RoundArm, RoundSummary } from "../report/round_model.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { differenceOfImprovement } from "../stats/difference.ts";
import type { Estimate, SiblingEstimate } from "../verdict/decide.ts";
import { setAsideReason } from "../verdict/set_aside_reason.ts";
import type { RoundStanding } from "../evaluation/round_standing.ts";
import { relativeOf } from "../evaluation/quantities.ts";
import { crashSummary } from "./crash_summary.ts";

/** The round for the reports (report/round_model.ts), from its standing and the values by measure name. */
export function roundSummary(r: RunRecord, s: RoundStanding): RoundSummary {
  const values = s.values;
  const direction = r.contract.direction;
  const winner = s.facts.winner?.arm ?? null;
  const arms = s.facts.candidates.map((c): RoundArm => {
    const screen = c.screen === null ? null : armEstimate(c.screen, c.arm, 1, values, direction);
    const confirmation = c.estimate === null
      ? null
      : armEstimate(c.estimate, c.arm, c.pairs - c.estimate.n + 1, values, direction);
    const settled = !s.open || c.standing === "dropped";
    const watched = (m: Readonly<Record<string, SiblingEstimate>>) =>
      Object.entries(m).map(([name, e]) => ({
        name,
        estimate: armEstimate(e, c.arm, c.pairs - e.n + 1, {}, direction).estimate,
        standing: e.standing,
      }));
    return {
      arm: c.arm,
      measure: benchmarkName(c.arm),
      ref: c.ref,
      sha: c.sha,
      label: r.labels[c.arm - 1] ?? "",
      verdict: settled ? c.verdict : null,
      standing: c.standing,
      because: settled ? c.because : null,
      winner: c.arm === winner,
      pairs: c.pairs,
      screen,
      confirmation,
      siblings: watched(c.siblings),
      ...(c.guards === undefined || Object.keys(c.guards).length === 0 ? {} : { guards: watched(c.guards) }),
      reason: c.reason,
      crash: c.crash === undefined ? null : crashSummary(c.crash),
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
      ...(e.setAside.length === 0 ? {} : { setAsideWhy: setAsideReason(e.method) }),
    },
    firstPair,
    lastPair,
    ...(e.relative === undefined ? {} : { relative: relativeOf(e.relative) }),
    difference: differenceOfImprovement(direction, e.mean),
    baseline: mean(BASE_ARM),
    candidate: mean(arm),
  };
}
