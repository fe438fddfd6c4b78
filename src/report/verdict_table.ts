import { renderColumns } from "../text/columns.ts";
import { CANDIDATE_ARM, differenceName, parseMeasureName } from "../measure/measure_name.ts";
import type { Decision, Estimate } from "../verdict/decide.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";
import type { PairedFacts } from "../rundir/decision_file.ts";

/**
 * Plain-text tables for people (stderr, `show`): no colours and no box
 * characters, so they read the same in a terminal, a Slurm log file and an
 * email. Machine readers use `--json` instead.
 */

/** Where a measure stands, as `show` reports it. */
export type MeasureState = "done" | "pending" | "running" | "failed" | "not dispatched" | "cancelled";

/** One line of `show`'s measure table. */
export interface MeasureStateRow {
  readonly name: string;
  readonly state: MeasureState;
  /** The measured value, when done. */
  readonly value?: number;
  /** The scheduler job id, when one is known. */
  readonly jobId?: string;
  /** The scheduler's reason for a pending job (`Dependency`, `Resources`, …). */
  readonly reason?: string;
  /** Why a measure failed, in a sentence. */
  readonly why?: string;
}

/** A delta with its sign, so "+2" and "-0.5" read as changes. */
function signed(n: number): string {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

/** The delta shown beside a candidate-side measure: `candidate`, `sib-<name>-cand`, and theirs in pair i (`#i`). */
function deltaFor(decision: Decision, measure: string): number | undefined {
  const ref = parseMeasureName(measure);
  if (ref === null || ref.arm < CANDIDATE_ARM) return undefined;
  return decision.deltas[differenceName(ref.sibling, ref.arm, ref.pair)];
}

/**
 * The decision for people: every measure with its value, the delta beside
 * each candidate-side measure, then the verdict and every reason.
 */
export function formatDecisionTable(decision: Decision, paired: PairedFacts | null = null): string {
  const rows = Object.entries(decision.values).map(([name, value]) => {
    const delta = deltaFor(decision, name);
    return [name, formatNumber(value), delta === undefined ? "" : signed(delta)];
  });
  const table = renderColumns(["measure", "value", "delta"], rows, new Set([1, 2]));
  const reasons = decision.reasons.map((r) => `  - ${r}`);
  const estimate = paired === null ? [] : [`improvement: ${formatEstimate(paired.benchmark)}`];
  return [table, "", `verdict: ${decision.verdict}`, ...estimate, ...reasons].join("\n") + "\n";
}

/** An estimate for people: `mean 0.42, 95% CI [0.31, 0.53], n=8`. */
export function formatEstimate(e: Estimate): string {
  const p = formatStat;
  return `mean ${p(e.mean)}, ${formatPercent(e.confidence)} CI [${p(e.lower)}, ${p(e.upper)}], n=${e.n}`;
}

/** Where each measure of a run stands, for `outerloop show`. */
export function formatMeasureStates(rows: readonly MeasureStateRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    r.state,
    r.value === undefined ? "" : formatNumber(r.value),
    r.jobId ?? "",
    [r.reason, r.why].filter((s) => s !== undefined && s !== "").join("; "),
  ]);
  return renderColumns(["measure", "state", "value", "job", "detail"], cells, new Set([2])) + "\n";
}
