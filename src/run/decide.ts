import type { Contract } from "./contract.ts";

/**
 * The decision: whether the candidate beats the baseline on the climbed
 * benchmark without any suite sibling regressing past its tolerance. A pure
 * function of the contract and the measured values, so the same numbers give
 * the same verdict on every run and in tests.
 */

/** The three outcomes. */
export type Verdict = "accept" | "reject" | "inconclusive";

/** A verdict with the numbers behind it and the reasons, for people and for the decision file. */
export interface Decision {
  readonly verdict: Verdict;
  /** Every measure's value, keyed by measure name (`baseline`, `candidate`, `sib-<name>-base`, …). */
  readonly values: Readonly<Record<string, number>>;
  /** Candidate minus base: `candidate` for the benchmark, `sib-<name>` per sibling. */
  readonly deltas: Readonly<Record<string, number>>;
  /** Full sentences with the numbers: one for the benchmark, then one per sibling. */
  readonly reasons: readonly string[];
}

/** The process exit code of each verdict (the CLI contract: 0, 10, 11). */
export const VERDICT_EXIT: Readonly<Record<Verdict, number>> = { accept: 0, reject: 10, inconclusive: 11 };

/** A number for a sentence: 12 significant digits, so `12.3 - 12.1` reads `0.2`, not `0.20000000000000107`. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** `values[name]`, or a `TypeError` naming the missing measure (a caller bug: decide runs on a complete plan). */
function valueOf(values: Readonly<Record<string, number>>, name: string): number {
  const v = values[name];
  if (v === undefined || !Number.isFinite(v)) {
    throw new TypeError(`Cannot decide: measure ${JSON.stringify(name)} has no finite value (got ${String(v)})`);
  }
  return v;
}

/** One base/candidate comparison: its delta, its improvement (signed by direction) and the words for it. */
function compare(metric: string, direction: "maximize" | "minimize", base: number, cand: number) {
  const delta = cand - base;
  const better = direction === "maximize" ? "higher" : "lower";
  const f = formatNumber;
  return {
    delta,
    improvement: direction === "maximize" ? delta : -delta,
    facts: `${metric} ${f(base)} -> ${f(cand)}, delta ${f(delta)}, ${better} is better`,
  };
}

/**
 * Decides from the measured `values` (keyed by measure name). Improvement is
 * the delta for a maximized metric and minus the delta for a minimized one.
 *
 * 1. A sibling whose improvement is below `-tolerance` rejects the candidate.
 * 2. Else a benchmark improvement above `minEffect` accepts it.
 * 3. Else no improvement at all (≤ 0) rejects it.
 * 4. Else it improved, but not by more than `minEffect`: inconclusive.
 */
export function decide(contract: Contract, values: Readonly<Record<string, number>>): Decision {
  const f = formatNumber;
  const main = compare(contract.metric, contract.direction, valueOf(values, "baseline"), valueOf(values, "candidate"));
  const deltas: Record<string, number> = { candidate: main.delta };

  const sibReasons: string[] = [];
  const regressed: string[] = [];
  for (const sib of contract.siblings) {
    const s = compare(
      sib.metric,
      sib.direction,
      valueOf(values, `sib-${sib.name}-base`),
      valueOf(values, `sib-${sib.name}-cand`),
    );
    deltas[`sib-${sib.name}`] = s.delta;
    const held = s.improvement >= -sib.tolerance;
    if (!held) regressed.push(`"${sib.name}"`);
    const how = held ? "held within" : "regressed beyond";
    sibReasons.push(`Sibling "${sib.name}" ${how} its tolerance ${f(sib.tolerance)}: ${s.facts}.`);
  }

  let verdict: Verdict;
  let reason: string;
  if (regressed.length > 0) {
    verdict = "reject";
    const on = main.improvement > 0 ? "improved" : "did not improve";
    reason = `The candidate ${on} on the benchmark (${main.facts}) but is rejected: ` +
      `sibling${regressed.length > 1 ? "s" : ""} ${regressed.join(", ")} regressed.`;
  } else if (main.improvement > contract.minEffect) {
    verdict = "accept";
    reason = `The candidate improved on the baseline by ${f(main.improvement)}, ` +
      `above min_effect ${f(contract.minEffect)}: ${main.facts}.`;
  } else if (main.improvement <= 0) {
    verdict = "reject";
    reason = `The candidate did not improve on the baseline: ${main.facts}.`;
  } else {
    verdict = "inconclusive";
    reason = `The candidate improved by ${f(main.improvement)}, ` +
      `at or below min_effect ${f(contract.minEffect)}: ${main.facts}.`;
  }
  return { verdict, values: { ...values }, deltas, reasons: [reason, ...sibReasons] };
}
