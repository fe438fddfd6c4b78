import { benchmarkDelta, benchmarkValues, type Climb, type RunSummary } from "./model.ts";

/**
 * `outerloop runs DIR --json`: the climb for machines. The shape is a
 * contract — keys are snake_case, always present (null when unknown, never
 * omitted), in a fixed order, and new keys are only ever added:
 *
 * ```json
 * {
 *   "runs": [
 *     {
 *       "tag": "r7", "run_dir": "/abs/runs/r7", "created_at": "2025-01-02T03:04:05Z",
 *       "benchmark": "pi", "metric": "error", "direction": "minimize", "min_effect": 0.001,
 *       "base_sha": "<40 hex>", "candidate_sha": "<40 hex>",
 *       "state": "decided", "verdict": "accept",
 *       "baseline": 0.012, "candidate": 0.004, "delta": -0.008,
 *       "interval": { "n": 5, "mean": -0.008, "lower": -0.011, "upper": -0.005, "confidence": 0.95 },
 *       "decided_at": "2025-01-02T03:16:10Z", "wall_seconds": 725, "failure": null, "live": null
 *     }
 *   ]
 * }
 * ```
 *
 * `runs` is oldest first. `baseline` / `candidate` are the benchmark's values
 * (the means over the pairs when the run has several) and `delta` is its
 * candidate − baseline (the interval's mean when there is one); each is null
 * until measured. `verdict` is null until decided; `interval` is null for a
 * single-pair run. `live` says whether the scheduler lists any job of an open
 * run; null unless asked (`runs --live`) and for runs that are over.
 */
export interface RunsListing {
  readonly runs: readonly RunListingEntry[];
}

/** One run of `RunsListing`; see there for the meaning of each key. */
export interface RunListingEntry {
  readonly tag: string;
  readonly run_dir: string;
  readonly created_at: string;
  readonly benchmark: string;
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  readonly min_effect: number;
  readonly base_sha: string;
  readonly candidate_sha: string;
  readonly state: RunSummary["state"];
  readonly verdict: RunSummary["verdict"];
  readonly baseline: number | null;
  readonly candidate: number | null;
  readonly delta: number | null;
  readonly interval: { n: number; mean: number; lower: number; upper: number; confidence: number } | null;
  readonly decided_at: string | null;
  readonly wall_seconds: number | null;
  readonly failure: string | null;
  readonly live: boolean | null;
}

/** The listing of a climb (already oldest first: see `toClimb`). Serialize with `JSON.stringify`. */
export function runsJson(climb: Climb): RunsListing {
  return { runs: climb.map(runEntry) };
}

/** One run as its listing entry. */
export function runEntry(r: RunSummary): RunListingEntry {
  const v = benchmarkValues(r);
  const i = r.interval;
  return {
    tag: r.tag,
    run_dir: r.runDir,
    created_at: r.createdAt,
    benchmark: r.benchmark,
    metric: r.metric,
    direction: r.direction,
    min_effect: r.minEffect,
    base_sha: r.baseSha,
    candidate_sha: r.candidateSha,
    state: r.state,
    verdict: r.verdict,
    baseline: v.baseline,
    candidate: v.candidate,
    delta: benchmarkDelta(r),
    interval: i === null ? null : { n: i.n, mean: i.mean, lower: i.lower, upper: i.upper, confidence: i.confidence },
    decided_at: r.decidedAt,
    wall_seconds: r.wallSeconds,
    failure: r.failure,
    live: r.live,
  };
}
