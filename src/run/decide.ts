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
  const base = valueOf(values, "baseline");
  const cand = valueOf(values, "candidate");
  const delta = cand - base;
  const deltas: Record<string, number> = { candidate: delta };
  const improvement = contract.direction === "maximize" ? delta : -delta;
  const better = contract.direction === "maximize" ? "higher" : "lower";
  const pair = `${contract.metric} ${formatNumber(base)} -> ${formatNumber(cand)}, delta ${formatNumber(delta)}, ${better} is better`;

  const sibReasons: string[] = [];
  const regressed: string[] = [];
  for (const sib of contract.siblings) {
    const sBase = valueOf(values, `sib-${sib.name}-base`);
    const sCand = valueOf(values, `sib-${sib.name}-cand`);
    const sDelta = sCand - sBase;
    deltas[`sib-${sib.name}`] = sDelta;
    const sImprovement = sib.direction === "maximize" ? sDelta : -sDelta;
    const sBetter = sib.direction === "maximize" ? "higher" : "lower";
    const facts = `${sib.metric} ${formatNumber(sBase)} -> ${formatNumber(sCand)}, delta ${formatNumber(sDelta)}, ${sBetter} is better`;
    if (sImprovement < -sib.tolerance) {
      regressed.push(sib.name);
      sibReasons.push(
        `Sibling "${sib.name}" regressed beyond its tolerance ${formatNumber(sib.tolerance)}: ${facts}.`,
      );
    } else {
      sibReasons.push(`Sibling "${sib.name}" held within its tolerance ${formatNumber(sib.tolerance)}: ${facts}.`);
    }
  }

  let verdict: Verdict;
  let main: string;
  if (regressed.length > 0) {
    verdict = "reject";
    const on = improvement > 0 ? "improved" : "did not improve";
    main = `The candidate ${on} on the benchmark (${pair}) but is rejected: ` +
      `sibling${regressed.length > 1 ? "s" : ""} ${regressed.map((n) => `"${n}"`).join(", ")} regressed.`;
  } else if (improvement > contract.minEffect) {
    verdict = "accept";
    main = `The candidate improved on the baseline by ${formatNumber(improvement)}, above min_effect ${formatNumber(contract.minEffect)}: ` +
      `${pair}.`;
  } else if (improvement <= 0) {
    verdict = "reject";
    main = `The candidate did not improve on the baseline: ${pair}.`;
  } else {
    verdict = "inconclusive";
    main = `The candidate improved by ${formatNumber(improvement)}, at or below min_effect ${formatNumber(contract.minEffect)}: ${pair}.`;
  }
  return { verdict, values: { ...values }, deltas, reasons: [main, ...sibReasons] };
}
