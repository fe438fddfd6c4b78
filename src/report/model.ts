import { benchmarkName, CANDIDATE_ARM } from "../measure/measure_name.ts";
import {
  derivedArmDifferenceInterval,
  derivedDifferenceInterval,
  derivedMeans,
  derivedPairDifference,
} from "./model_fallbacks.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import type { SampleSpread } from "../stats/samples.ts";
import type { ArmEstimate, RoundSummary } from "./round_model.ts";
import type { ComputeMode } from "../compute/mode.ts";

/**
 * The plain data every report is rendered from: one `RunSummary` per run dir,
 * as the wiring code reads it from `run.json`, `decision.json` and the
 * measurements. The renderers in this folder are pure functions of these
 * values, so the same run dir gives the same report byte for byte.
 */

/** Where a run stands. */
export type RunState = "parked" | "measuring" | "interrupted" | "decided" | "calibrated" | "failed" | "cancelled";

/**
 * A decided run's outcome; null while the run is open, failed or cancelled.
 * `crashed`: the candidate's eval crashed — it exited non-zero, printed no
 * (or no readable) metric, or ran past eval_minutes — a verdict on the
 * candidate (its code), not a failure of the run; `crash` says why.
 */
export type RunVerdict = "accept" | "reject" | "inconclusive" | "crashed" | null;

/** Why a candidate crashed: the measure whose eval crashed, the cause in one line and the end of its log. */
export interface CrashSummary {
  /** The measure whose eval crashed: `candidate#2`, `candidate-3`, `sib-lat-cand`. */
  readonly measure: string;
  /** The cause, one line: `eval exited with code 1`, `no metric "t" in its output`, `ran past eval_minutes 10`. */
  readonly cause: string;
  /** The scheduler's id of the job it crashed in (`1234_5` for an array task); null when none was recorded. */
  readonly jobId: string | null;
  /** The last lines of its eval's log, as written; "" when there is none. */
  readonly logTail: string;
}

/**
 * The benchmark's estimate of the **improvement** — how much better the
 * candidate is, in the metric's units, in the direction's favour (candidate −
 * baseline when maximizing, baseline − candidate when minimizing): positive is
 * better whatever the direction (src/stats/improvement.ts). It is what the
 * verdict rests on: decision.json's `benchmark` for a repeated design, the one
 * pair's improvement for a single pair.
 */
export interface ImprovementEstimate {
  /** How many pairs it rests on. */
  readonly n: number;
  /** The mean improvement over the pairs (positive = better). */
  readonly mean: number;
  /** Its confidence interval; null for a single pair, which has none. */
  readonly interval: ImprovementInterval | null;
  /**
   * The pairs (1-based, in pair order) the estimate set aside as outlying
   * (decision.json's `set_aside`, src/stats/screened_t.ts): `mean` and the
   * interval are those of the other n − setAside.length pairs. [] when none.
   */
  readonly setAside: readonly number[];
  /**
   * Why those pairs were set aside (`setAsideReason` of the estimate's
   * method: `outlying by the generalized ESD test`); absent when none were.
   */
  readonly setAsideWhy?: string;
}

/**
 * The **relative** change: the estimate of the candidate / baseline ratio
 * (computed on the log scale of the paired ratios, so measuring t minimized
 * and 1/t maximized give mirrored figures), with its interval. Only for a
 * metric that is positive; reports print it as timing users read it
 * (format.ts `formatRelative`).
 */
export interface RelativeEstimate {
  /** The ratio candidate / baseline: 0.882 is 11.8% lower, 1.166 is 16.6% higher. */
  readonly mean: number;
  /** Its interval's ends and level; null for a single pair, which has none. */
  readonly lower: number | null;
  readonly upper: number | null;
  readonly confidence: number | null;
}

/** A confidence interval of the mean improvement (positive = better). */
export interface ImprovementInterval {
  readonly lower: number;
  readonly upper: number;
  /** The interval's two-sided level as a fraction, e.g. 0.95 (a sequential look's own level). */
  readonly confidence: number;
}

/** One pair of the benchmark: both measured on the same seed. */
export interface PairValues {
  readonly baseline: number;
  readonly candidate: number;
  /** Its difference, candidate − baseline (decision.json's delta once decided); absent until the views fill it. */
  readonly difference?: number;
}

/** One run, as read from its files. */
export interface RunSummary {
  /** The run dir's absolute path. */
  readonly runDir: string;
  readonly tag: string;
  /** A measure run (baseline against candidate) or a calibration (`outerloop calibrate`: the base against itself). */
  readonly kind: "measure" | "calibrate";
  /** When the run was created (ISO 8601). */
  readonly createdAt: string;
  /** Where its jobs ran: the backend its record names. */
  readonly backend: ComputeMode;
  /** The contract's name for the climbed benchmark. */
  readonly benchmark: string;
  readonly metric: string;
  /** What the metric is measured in (the contract's `unit`: `ms`, `bpb`, `MB`); null when it does not say. */
  readonly unit: string | null;
  readonly direction: "maximize" | "minimize";
  /**
   * The smallest improvement that accepts, in the metric's units, where the
   * charts draw it. A relative min_effect (`"2%"`, judged on the log ratio)
   * is placed at the baseline's mean: b × m maximizing, b × (1 − 1/(1 + m))
   * minimizing (0 while no baseline value is known) — where a candidate of
   * the baseline's mean crosses it.
   */
  readonly minEffect: number;
  /** min_effect as the contract writes it, for the text: `0.5` (units) or `"2%"` (relative). */
  readonly minEffectWritten: number | string;
  /** Full shas; reports show 10 characters. */
  readonly baseSha: string;
  /** The commit to merge: the candidate's; a round's winner's, null while it has none (`mergeSha`). */
  readonly candidateSha: string | null;
  /**
   * What the candidate tries: `--label`, else its commit's subject; a
   * round's, its winner's (each candidate's is in `round`); "" when none is
   * known (a run from before labels, a calibration, a round without a winner).
   */
  readonly label: string;
  readonly state: RunState;
  readonly verdict: RunVerdict;
  /**
   * Every measured value by measure name: `baseline`, `candidate`,
   * `sib-<name>-base`, `sib-<name>-cand`; later pairs add `baseline#2`, ….
   * Partial while the run is open.
   */
  readonly values: Readonly<Record<string, number>>;
  /**
   * The **differences**, candidate − baseline (the raw sign, whatever the
   * direction), pair by pair, exactly as decision.json's `deltas` keys them:
   * `candidate`, `candidate#2`, … for the benchmark, `sib-<name>`,
   * `sib-<name>#2`, … per sibling. {} until decided.
   */
  readonly differences: Readonly<Record<string, number>>;
  /**
   * The benchmark's improvement (positive = better) with its interval; null
   * until decided. A round's is its winner's (the confirmation's, on pairs
   * that did not choose it), null when it has none: each candidate's is in
   * `round`.
   */
  readonly improvement: ImprovementEstimate | null;
  /**
   * The benchmark's difference interval (candidate − baseline) at the
   * improvement interval's level: the decision's difference estimate, on the
   * side of zero its pairs lie. Null without an interval; absent until the
   * views fill it (`differenceInterval` then derives it).
   */
  readonly differenceInterval?: ImprovementInterval | null;
  /**
   * The benchmark's baseline and candidate value as a climb plots them: the
   * means over the pairs (a round's, its winner's over its estimate's pairs;
   * without a winner, the baseline's over every pair and no candidate); a
   * side not measured yet null. Absent until the views fill it.
   */
  readonly means?: { readonly baseline: number | null; readonly candidate: number | null };
  /**
   * The benchmark's relative change (candidate / baseline) beside the
   * improvement, at its level: a round's is its winner's. Null (or absent)
   * until decided and for a metric that is not positive.
   */
  readonly relative?: RelativeEstimate | null;
  /**
   * The benchmark's mean difference over the pairs, candidate − baseline: the
   * improvement's mean through the direction (so the two agree to the last
   * bit), or the one pair's difference. Null until decided.
   */
  readonly difference: number | null;
  /**
   * The spread of the samples behind each value (count, min, median, max),
   * by measure name, for the measures whose benchmark reported its metric as
   * an array: decision.json's `samples` once decided, the evals' results
   * while open. {} when none did.
   */
  readonly samples: Readonly<Record<string, SampleSpread>>;
  /** The benchmark's values pair by pair, pair 1 first; [] when unknown, and for a round (its arms are in `round`). */
  readonly pairs: readonly PairValues[];
  /** A round of K ≥ 2 candidates against one baseline: every candidate's standing and estimates; null for one candidate. */
  readonly round: RoundSummary | null;
  /**
   * A calibration's result (calibration.json, rundir/calibration_file.ts):
   * the A/A pairs with their seeds, the spread, the A/A interval and whether
   * it excludes 0, the power table, the suggested contract keys and how they
   * were derived. Null (or absent) for a measure run and for a calibration
   * that is still measuring.
   */
  readonly calibration?: CalibrationRecord | null;
  /** The decision's reasons, full sentences. */
  readonly reasons: readonly string[];
  /** When the run was decided (ISO 8601), null while open. */
  readonly decidedAt: string | null;
  /** Decided (or failed, or cancelled) minus created, in seconds; null while open. */
  readonly wallSeconds: number | null;
  /** Why the candidate crashed (its verdict `crashed`); null (or absent) otherwise. A round's are per candidate. */
  readonly crash?: CrashSummary | null;
  /** Why the run failed, one line; null unless failed. */
  readonly failure: string | null;
  /** How a decided run's decision.json disagrees with the results beside it (views/decision_check.ts); [] when it follows. */
  readonly disputes: readonly string[];
  /**
   * Whether the scheduler lists any job of the run (its evals or its wake):
   * asked only for an open run and only by `outerloop runs --live`; null
   * otherwise. An open run with nothing live waits on nothing: `outerloop
   * wait` (or `resume`) carries it on.
   */
  readonly live: boolean | null;
  /** Whether its wake job is queued or running, asked with `live`; null when not asked. */
  readonly wakeLive?: boolean | null;
}

/** A climb: every run of one directory, oldest first (build it with `toClimb`). */
export type Climb = readonly RunSummary[];

/** Milliseconds since the epoch, or +Infinity for an unreadable timestamp (it sorts last). */
function timeOf(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * The runs oldest first: by creation time, then tag, then run dir, so two
 * runs created in the same second still come out in one fixed order.
 */
export function toClimb(runs: readonly RunSummary[]): Climb {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...runs].sort((a, b) =>
    timeOf(a.createdAt) - timeOf(b.createdAt) || cmp(a.tag, b.tag) || cmp(a.runDir, b.runDir)
  );
}

/**
 * The benchmark's baseline and candidate value for a run, for plotting a
 * climb: the model's `means` (derived, model_fallbacks.ts, only while the
 * views leave them unset).
 */
export function benchmarkValues(run: RunSummary): { baseline: number | null; candidate: number | null } {
  return run.means ?? derivedMeans(run);
}

/**
 * The benchmark's difference interval (candidate − baseline): the model's
 * `differenceInterval` (derived from the improvement's through the direction,
 * model_fallbacks.ts, only while the views leave it unset). Null without an
 * interval.
 */
export function differenceInterval(run: RunSummary): ImprovementInterval | null {
  return run.differenceInterval !== undefined
    ? run.differenceInterval
    : derivedDifferenceInterval(run.direction, run.improvement?.interval ?? null);
}

/** A round candidate's difference interval: its estimate's `differenceInterval` (derived only while unset). */
export function armDifferenceInterval(e: ArmEstimate, direction: RunSummary["direction"]): ImprovementInterval | null {
  return e.differenceInterval !== undefined ? e.differenceInterval : derivedArmDifferenceInterval(e, direction);
}

/**
 * Pair i's difference (1-based), candidate − baseline: the pair's
 * `difference`, else the run's recorded one (decision.json's delta), else
 * (only while the views leave both unset) from its two values.
 */
export function pairDifference(run: RunSummary, i: number): number | null {
  const p = run.pairs[i - 1];
  if (p === undefined) return null;
  return p.difference ?? run.differences[benchmarkName(CANDIDATE_ARM, i)] ?? derivedPairDifference(p);
}

/** Whether the run is a calibration (an A/A run: no candidate, no verdict); it stays out of a climb's charts. */
export function isCalibration(run: RunSummary): boolean {
  return run.kind === "calibrate";
}
