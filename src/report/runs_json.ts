import { benchmarkValues, type Climb, type RunSummary } from "./model.ts";

/**
 * `outerloop runs DIR --json`: the climb for machines. The shape is a
 * contract — keys are snake_case, always present (null when unknown, never
 * omitted), in a fixed order:
 *
 * ```json
 * {
 *   "runs": [
 *     {
 *       "tag": "r7", "kind": "measure", "run_dir": "/abs/runs/r7", "created_at": "2025-01-02T03:04:05Z",
 *       "benchmark": "timing", "metric": "ms", "direction": "minimize", "min_effect": 0.3,
 *       "base_sha": "<40 hex>", "candidate_sha": "<40 hex>",
 *       "state": "decided", "verdict": "accept",
 *       "baseline": 13.31, "candidate": 12.56, "difference": -0.75,
 *       "improvement": { "n": 10, "mean": 0.75, "lower": 0.66, "upper": 0.84, "confidence": 0.95 },
 *       "decided_at": "2025-01-02T03:16:10Z", "wall_seconds": 725, "failure": null, "live": null,
 *       "disputes": []
 *     }
 *   ]
 * }
 * ```
 *
 * `runs` is oldest first. Two quantities, never one name for both:
 *
 * - `difference` is the benchmark's mean **difference**, candidate − baseline
 *   over the pairs — the raw sign, negative when a `minimize` candidate is
 *   lower — and `baseline` / `candidate` are the means over the pairs (pair
 *   1's values for a single pair), so `difference` is `candidate − baseline`
 *   up to rounding;
 * - `improvement` is the estimate the verdict rests on, of the
 *   **improvement** in the direction's favour (candidate − baseline when
 *   maximizing, baseline − candidate when minimizing): positive is better.
 *   `n` pairs, its `mean`, and its interval `lower`, `upper` at `confidence`
 *   (a sequential look's own level) — those three null for a single pair,
 *   which has no interval.
 *
 * `difference` and `improvement` are null until the run is decided, `baseline`
 * / `candidate` until measured, `verdict` until decided. `state` is the run's
 * standing: `decided`, `calibrated` (a calibration, `kind: "calibrate"`, that
 * measured every pair), `parked`, `measuring` / `interrupted` (an open local
 * run), `failed` or `cancelled`. `disputes` lists how decision.json disagrees
 * with the results beside it, one sentence each: a run with any has a verdict
 * its results do not give — do not act on it (`resume` and `wait` refuse it).
 * `live` says whether the scheduler lists any job of an open run; null unless
 * asked (`runs --live`) and for runs that are over.
 *
 * Changed in issue 14: `delta` (which was the improvement for a repeated run
 * and the difference for a single pair) is replaced by `difference` (always
 * candidate − baseline) and `improvement.mean` (always positive = better);
 * `interval` (an improvement interval, despite being called candidate −
 * baseline) by `improvement` with `lower` / `upper` / `confidence`, now also
 * present for a single pair (n 1, no interval); `kind` and `disputes` are
 * new. Keys are only ever added from here on.
 */
export interface RunsListing {
  readonly runs: readonly RunListingEntry[];
}

/** The improvement estimate of `RunListingEntry` (positive = better); see `RunsListing`. */
export interface ImprovementJson {
  readonly n: number;
  readonly mean: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly confidence: number | null;
}

/** One run of `RunsListing`; see there for the meaning of each key. */
export interface RunListingEntry {
  readonly tag: string;
  readonly kind: RunSummary["kind"];
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
  readonly difference: number | null;
  readonly improvement: ImprovementJson | null;
  readonly decided_at: string | null;
  readonly wall_seconds: number | null;
  readonly failure: string | null;
  readonly live: boolean | null;
  readonly disputes: readonly string[];
}

/** The listing of a climb (already oldest first: see `toClimb`). Serialize with `JSON.stringify`. */
export function runsJson(climb: Climb): RunsListing {
  return { runs: climb.map(runEntry) };
}

/** One run as its listing entry. */
export function runEntry(r: RunSummary): RunListingEntry {
  const v = benchmarkValues(r);
  const e = r.improvement;
  return {
    tag: r.tag,
    kind: r.kind,
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
    difference: r.difference,
    improvement: e === null ? null : {
      n: e.n,
      mean: e.mean,
      lower: e.interval?.lower ?? null,
      upper: e.interval?.upper ?? null,
      confidence: e.interval?.confidence ?? null,
    },
    decided_at: r.decidedAt,
    wall_seconds: r.wallSeconds,
    failure: r.failure,
    live: r.live,
    disputes: [...r.disputes],
  };
}
