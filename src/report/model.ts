/**
 * The plain data every report is rendered from: one `RunSummary` per run dir,
 * as the wiring code reads it from `run.json`, `decision.json` and the
 * measurements. The renderers in this folder are pure functions of these
 * values, so the same run dir gives the same report byte for byte.
 */

/** Where a run stands. */
export type RunState = "parked" | "measuring" | "interrupted" | "decided" | "calibrated" | "failed" | "cancelled";

/** A decided run's outcome; null while the run is open, failed or cancelled. */
export type RunVerdict = "accept" | "reject" | "inconclusive" | null;

/** The benchmark's paired confidence interval of candidate − baseline. */
export interface PairedInterval {
  /** How many pairs it was computed from. */
  readonly n: number;
  /** The mean paired difference (candidate − baseline). */
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  /** The confidence level as a fraction, e.g. 0.95. */
  readonly confidence: number;
}

/** One pair of the benchmark: both measured on the same seed. */
export interface PairValues {
  readonly baseline: number;
  readonly candidate: number;
}

/** One run, as read from its files. */
export interface RunSummary {
  /** The run dir's absolute path. */
  readonly runDir: string;
  readonly tag: string;
  /** When the run was created (ISO 8601). */
  readonly createdAt: string;
  /** The contract's name for the climbed benchmark. */
  readonly benchmark: string;
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  /** The smallest improvement that accepts, in the metric's units. */
  readonly minEffect: number;
  /** Full shas; reports show 10 characters. */
  readonly baseSha: string;
  readonly candidateSha: string;
  readonly state: RunState;
  readonly verdict: RunVerdict;
  /**
   * Every measured value by measure name: `baseline`, `candidate`,
   * `sib-<name>-base`, `sib-<name>-cand`; later pairs add `baseline#2`, ….
   * Partial while the run is open.
   */
  readonly values: Readonly<Record<string, number>>;
  /** Candidate minus base: `candidate` for the benchmark, `sib-<name>` per sibling. */
  readonly deltas: Readonly<Record<string, number>>;
  /** The benchmark's paired interval; null for single-pair runs. */
  readonly interval: PairedInterval | null;
  /** The benchmark's values pair by pair, pair 1 first; [] when unknown. */
  readonly pairs: readonly PairValues[];
  /** The decision's reasons, full sentences. */
  readonly reasons: readonly string[];
  /** When the run was decided (ISO 8601), null while open. */
  readonly decidedAt: string | null;
  /** Decided (or failed, or cancelled) minus created, in seconds; null while open. */
  readonly wallSeconds: number | null;
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
 * climb: the mean over the pairs when `pairs` is known (a run with repeats
 * has one value per pair), else `values.baseline` / `values.candidate`.
 * A side not measured yet is null.
 */
export function benchmarkValues(run: RunSummary): { baseline: number | null; candidate: number | null } {
  if (run.pairs.length > 0) {
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    return {
      baseline: finiteOrNull(mean(run.pairs.map((p) => p.baseline))),
      candidate: finiteOrNull(mean(run.pairs.map((p) => p.candidate))),
    };
  }
  return { baseline: finiteOrNull(run.values["baseline"]), candidate: finiteOrNull(run.values["candidate"]) };
}

/**
 * The benchmark's candidate − baseline for a run: the interval's mean when
 * there is one (the number the verdict rests on), else `deltas.candidate`;
 * null when the run has neither.
 */
export function benchmarkDelta(run: RunSummary): number | null {
  if (run.interval !== null) return finiteOrNull(run.interval.mean);
  return finiteOrNull(run.deltas["candidate"]);
}

function finiteOrNull(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}
