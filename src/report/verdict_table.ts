import { renderColumns } from "../text/columns.ts";
import {
  BASE_ARM,
  CANDIDATE_ARM,
  differenceName,
  guardName,
  measureName,
  parseGuardName,
  parseMeasureName,
} from "../measure/measure_name.ts";
import type { Decision, Estimate } from "../verdict/decide.ts";
import type { CandidateVerdict } from "../verdict/crashed.ts";
import { formatDifference, formatEstimate, formatMeasured, formatPercent } from "../text/numbers.ts";
import type { PairedFacts } from "../rundir/decision_file.ts";
import { setAsideWords } from "./set_aside.ts";
import { setAsideReason } from "../verdict/set_aside_reason.ts";
import { formatRelative } from "./format.ts";
import type { RelativeEstimate } from "./model.ts";

/**
 * Plain-text tables for people (stderr, `show`): no colours and no box
 * characters, so they read the same in a terminal, a Slurm log file and an
 * email. Machine readers use `--json` instead.
 */

/** Where a measure stands, as `show` reports it. */
export type MeasureState = "done" | "pending" | "running" | "failed" | "crashed" | "not dispatched" | "cancelled";

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

const isNumber = (v: number | undefined): v is number => v !== undefined;

/**
 * The difference (candidate − base) shown beside a candidate-side measure
 * (`candidate`, `sib-<name>-cand`, and theirs in pair i, `#i`), to the
 * decimals its two values print with; "" beside any other.
 */
function differenceFor(decision: Pick<Decision, "deltas" | "values">, measure: string): string {
  const guard = parseGuardName(measure);
  if (guard !== null) {
    // a guard's difference is keyed by its candidate-side name (verdict/decide.ts)
    const d = guard.arm < CANDIDATE_ARM ? undefined : decision.deltas[measure];
    const base = decision.values[guardName(guard.metric, BASE_ARM, guard.pair)];
    return d === undefined ? "" : formatDifference(d, [base, decision.values[measure]].filter(isNumber), true);
  }
  const ref = parseMeasureName(measure);
  if (ref === null || ref.arm < CANDIDATE_ARM) return "";
  const d = decision.deltas[differenceName(ref.sibling, ref.arm, ref.pair)];
  if (d === undefined) return "";
  const base = decision.values[measureName({ ...ref, arm: BASE_ARM })];
  const cand = decision.values[measure];
  return formatDifference(d, [base, cand].filter((v): v is number => v !== undefined), true);
}

/**
 * The decision for people: every measure with its value (at most 6
 * significant digits: text/numbers.ts), the difference (candidate − base)
 * beside each candidate-side measure, then the verdict — `(disputed)` when
 * `disputed`: decision.json does not follow from the results beside it — the
 * improvement estimate of a repeated design and the pairs it set aside as
 * outlying, and every reason. A round's candidates (`round`, report/round_table.ts) go
 * right before the verdict. `metric` says the metric's unit (in the value
 * and difference headers) and its direction, and brings the benchmark's
 * relative change (candidate / baseline), on the line after the
 * improvement, in the metric's words (format.ts `formatRelative`).
 */
export function formatDecisionTable(
  decision: Omit<Decision, "verdict"> & { readonly verdict: CandidateVerdict },
  paired: PairedFacts | null = null,
  disputed = false,
  round?: string,
  metric: MetricWords | null = null,
): string {
  const rows = Object.entries(decision.values).map(([name, value]) => {
    return [name, formatMeasured(value), differenceFor(decision, name)];
  });
  const unit = metric?.unit ?? null;
  const inUnit = (header: string) => unit === null ? header : `${header} (${unit})`;
  const table = renderColumns(["measure", inUnit("value"), inUnit("difference")], rows, new Set([1, 2]));
  const reasons = decision.reasons.map((r) => `  - ${r}`);
  const estimate = paired === null ? [] : [`improvement (positive = better): ${estimateText(paired.benchmark)}`];
  const relative = metric?.relative ?? null;
  const ratio = relative === null ? "" : formatRelative(relative, metric!.direction, unit);
  if (ratio !== "") {
    const level = relative!.confidence;
    estimate.push(`relative (candidate / baseline): ${ratio}${level === null ? "" : `, ${formatPercent(level)}`}`);
  }
  const verdict = `verdict: ${decision.verdict}${disputed ? " (disputed)" : ""}`;
  const candidates = round === undefined ? [] : ["", round.trimEnd()];
  // a decision without values (a crash at the first measure: --smoke) has no table, not a header alone
  const lines = [...(rows.length === 0 ? [] : [table]), ...candidates, "", verdict];
  while (lines[0] === "") lines.shift();
  return [...lines, ...estimate, ...setAsideLines(paired), ...reasons].join("\n") + "\n";
}

/**
 * The pairs a repeated design's estimates set aside, and why, one line for
 * the benchmark and one per sibling that set any aside: `set aside: pair 8
 * set aside, outlying by the generalized ESD test (baseline#8, candidate#8)`.
 */
function setAsideLines(paired: PairedFacts | null): string[] {
  if (paired === null) return [];
  const b = paired.benchmark;
  const lines = b.setAside.length === 0 ? [] : [`set aside: ${setAsideWords(b.setAside, setAsideReason(b.method))}`];
  for (const [name, s] of Object.entries(paired.siblings)) {
    if (s.setAside.length > 0) {
      lines.push(`sibling ${name}: set aside: ${setAsideWords(s.setAside, setAsideReason(s.method), name)}`);
    }
  }
  return lines;
}

/** An estimate for people, to the digits its interval supports: `mean 0.42, 95% CI [0.31, 0.53], n=8`. */
export function estimateText(e: Estimate): string {
  const t = formatEstimate(e);
  return `mean ${t.mean}, ${formatPercent(e.confidence)} CI [${t.lower}, ${t.upper}], n=${e.n}`;
}

/** What `formatDecisionTable` says of the metric: its direction and unit, and the relative change to print. */
export interface MetricWords {
  readonly direction: "maximize" | "minimize";
  readonly unit: string | null;
  readonly relative: RelativeEstimate | null;
}

/** Where each measure of a run stands, for `outerloop show`. */
export function formatMeasureStates(rows: readonly MeasureStateRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    r.state,
    r.value === undefined ? "" : formatMeasured(r.value),
    r.jobId ?? "",
    [r.reason, r.why].filter((s) => s !== undefined && s !== "").join("; "),
  ]);
  return renderColumns(["measure", "state", "value", "job", "detail"], cells, new Set([2])) + "\n";
}
