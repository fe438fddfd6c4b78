// Tested by tests/report/crash_section_test.ts
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import {
  benchmarkValues,
  type Climb,
  type CrashSummary,
  type ImprovementEstimate,
  type RelativeEstimate,
  type RunSummary,
} from "./model.ts";
import { type RoundArm, shownEstimate, shownStage } from "./round_model.ts";
import type { CandidateEntryJson, RunEntryJson, RunsJson } from "../output/runs_output.ts";

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
 *       "benchmark": "timing", "metric": "t", "unit": "ms", "direction": "minimize", "min_effect": 0.3,
 *       "base_sha": "<40 hex>", "candidate_sha": "<40 hex>",
 *       "state": "decided", "verdict": "accept",
 *       "baseline": 13.31, "candidate": 12.56, "difference": -0.75,
 *       "improvement": { "n": 10, "mean": 0.75, "lower": 0.66, "upper": 0.84, "confidence": 0.95 },
 *       "decided_at": "2025-01-02T03:16:10Z", "wall_seconds": 725, "failure": null, "live": null,
 *       "disputes": [], "round": null
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
 * `round` is null for a run of one candidate. A **round** (`measure
 * --candidate A --candidate B …`: K ≥ 2 candidates against one baseline)
 * has, beside the keys above — which are the round's: its `state` and
 * `verdict` (accept when it has a winner), and `baseline`, `candidate`,
 * `difference` and `improvement` its winner's (the confirmation's estimate,
 * on pairs that did not choose it; `candidate` and those two null without a
 * winner, `baseline` then the mean of every baseline pair), while
 * `candidate_sha` is the winner's (null without one), the commit to merge —
 *
 * ```json
 * "round": {
 *   "open": false, "n": 6,
 *   "winner": { "arm": 2, "measure": "candidate-2", "ref": "C2", "sha": "<40 hex>" },
 *   "candidates": [
 *     { "arm": 1, "measure": "candidate", "ref": "C1", "sha": "<40 hex>", "verdict": "inconclusive",
 *       "standing": "dropped", "because": "hopeless", "winner": false, "pairs": 2,
 *       "stage": "screen", "first_pair": 1, "last_pair": 2, "baseline": 10.1, "candidate": 10.2,
 *       "difference": 0.1, "improvement": { "n": 2, "mean": 0.1, "lower": 0.05, "upper": 0.15, "confidence": 0.95 } }
 *   ]
 * }
 * ```
 *
 * `open` is true until decision.json has the round (where it stands is then
 * what its complete batches give); `n` the pairs complete; `winner` null
 * for none (or not yet). Per candidate, arm 1 first: `arm` (1 … K) and
 * `measure` (its measure name, decision.json's key: `candidate`,
 * `candidate-2`, …), `ref` and `sha`; `verdict` (null while in play in an
 * open round); `standing` — `in-play`, `dropped` (by the screen: measured no
 * more after pair `pairs`) or `decided` — and `because` (the decision's word
 * for why it left play: `hopeless`, `behind`, `not-leader`, `sibling`,
 * `accepted`, `futile`, …; null while in play); `winner`; `pairs` (it was
 * measured on pairs 1 … pairs). Then the estimate shown for it: `stage`
 * `confirmation` (the screen's choice, judged on fresh pairs: what its
 * verdict rests on) or `screen` (descriptive: the screen chooses, it does
 * not decide), null before either; the round's pairs it rests on,
 * `first_pair` … `last_pair`; the baseline's and the candidate's mean over
 * those pairs; the mean `difference` (candidate − baseline); and its
 * `improvement` (positive = better), `lower`/`upper`/`confidence` null for one
 * pair. (Added in issue 16.)
 *
 * Changed in issue 14: `delta` (which was the improvement for a repeated run
 * and the difference for a single pair) is replaced by `difference` (always
 * candidate − baseline) and `improvement.mean` (always positive = better);
 * `interval` (an improvement interval, despite being called candidate −
 * baseline) by `improvement` with `lower` / `upper` / `confidence`, now also
 * present for a single pair (n 1, no interval); `kind` and `disputes` are
 * new. Keys are only ever added from here on.
 *
 * `calibration` (added in issue 21) is null but for a calibration that
 * measured every pair: `{ "n": 6, "mean": 0.0011, "lower": -0.0084,
 * "upper": 0.0106, "confidence": 0.95, "sd": 0.0089, "biased": false,
 * "suggestion": { "min_effect": 0.03, "repeats": 4, "max_repeats": 12 } }` —
 * the A/A pairs, the mean and interval of a pair's improvement of its second
 * measure over its first (positive = better), its sd, whether the interval
 * excludes 0, and the contract keys it suggests.
 *
 * `relative` (added in issue 22), on a run and on each round candidate, is
 * the relative change beside `improvement`: the ratio candidate / baseline
 * (`mean`, and `lower` / `upper` / `confidence` null for a single pair), null
 * until decided and for a metric that is not positive.
 *
 * `verdict` may be `crashed` (added in issue 21), for a run and for a round's
 * candidate: its eval crashed — exited non-zero, printed no readable metric,
 * or ran past eval_minutes. That is a verdict on the candidate, not a failed
 * run; `crash` (null otherwise, on the run and on each candidate) says
 * `{ "measure": "candidate#2", "job_id": "1234_3", "cause": "eval exited
 * with code 1", "log_tail": "…" }`: which measure crashed, in which job,
 * why, and the end of its log.
 */
/** `runs --json`'s listing (its schema: output/runs_output.ts). */
type RunsListing = RunsJson;
type RunListingEntry = RunEntryJson;
type RoundCandidateEntry = CandidateEntryJson;
type ImprovementJson = RunEntryJson["improvement"];
type RelativeJson = RunEntryJson["relative"];
type CrashListing = RunEntryJson["crash"];
type CalibrationListing = RunEntryJson["calibration"];

/** The listing of a climb (already oldest first: see `toClimb`). Serialize with `JSON.stringify`. */
export function runsJson(climb: Climb): RunsListing {
  return { runs: climb.map(runEntry) };
}

/** One run as its listing entry. */
function runEntry(r: RunSummary): RunListingEntry {
  const v = benchmarkValues(r);
  const e = r.improvement;
  return {
    tag: r.tag,
    kind: r.kind,
    run_dir: r.runDir,
    created_at: r.createdAt,
    benchmark: r.benchmark,
    metric: r.metric,
    unit: r.unit,
    direction: r.direction,
    min_effect: r.minEffectWritten,
    base_sha: r.baseSha,
    // the commit to merge: a round's winner's, null without one (never the first candidate's)
    candidate_sha: r.candidateSha,
    label: r.label,
    state: r.state,
    verdict: r.verdict,
    baseline: v.baseline,
    candidate: v.candidate,
    difference: r.difference,
    improvement: improvementJson(e),
    decided_at: r.decidedAt,
    wall_seconds: r.wallSeconds,
    failure: r.failure,
    live: r.live,
    disputes: [...r.disputes],
    round: r.round === null ? null : {
      open: r.round.open,
      n: r.round.n,
      winner: (() => {
        const w = r.round.arms.find((a) => a.winner);
        return w === undefined ? null : { arm: w.arm, measure: w.measure, ref: w.ref, sha: w.sha };
      })(),
      candidates: r.round.arms.map(candidateEntry),
    },
    calibration: calibrationJson(r.calibration ?? null),
    crash: crashJson(r.crash),
    relative: relativeJson(r.relative),
  };
}

/** A relative estimate's listing; null without one. */
function relativeJson(r: RelativeEstimate | null | undefined): RelativeJson {
  return r === null || r === undefined
    ? null
    : { mean: r.mean, lower: r.lower, upper: r.upper, confidence: r.confidence };
}

/** A crash's listing; null without one. */
function crashJson(c: CrashSummary | null | undefined): CrashListing {
  return c === null || c === undefined
    ? null
    : { measure: c.measure, job_id: c.jobId, cause: c.cause, log_tail: c.logTail };
}

/** A calibration's listing: its A/A improvement's mean and interval, sd, bias and suggested keys. */
function calibrationJson(c: CalibrationRecord | null): CalibrationListing {
  return c === null ? null : {
    n: c.n,
    mean: c.mean,
    lower: c.lower,
    upper: c.upper,
    confidence: c.confidence,
    sd: c.sd,
    biased: c.biased,
    suggestion: {
      min_effect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      max_repeats: c.suggestion.maxRepeats,
    },
  };
}

/** An improvement estimate in its listing form; lower/upper/confidence null without an interval. */
function improvementJson(e: ImprovementEstimate | null): ImprovementJson {
  return e === null ? null : {
    n: e.n,
    mean: e.mean,
    lower: e.interval?.lower ?? null,
    upper: e.interval?.upper ?? null,
    confidence: e.interval?.confidence ?? null,
    set_aside: [...e.setAside],
    set_aside_why: e.setAside.length === 0 ? null : e.setAsideWhy ?? "outlying",
  };
}

function candidateEntry(a: RoundArm): RoundCandidateEntry {
  const e = shownEstimate(a);
  const stage = shownStage(a);
  return {
    arm: a.arm,
    measure: a.measure,
    ref: a.ref,
    sha: a.sha,
    label: a.label,
    verdict: a.verdict,
    standing: a.standing,
    because: a.because,
    winner: a.winner,
    pairs: a.pairs,
    stage: stage === "" ? null : stage,
    first_pair: e?.firstPair ?? null,
    last_pair: e?.lastPair ?? null,
    baseline: e?.baseline ?? null,
    candidate: e?.candidate ?? null,
    difference: e?.difference ?? null,
    improvement: improvementJson(e?.estimate ?? null),
    crash: crashJson(a.crash),
    relative: relativeJson(e?.relative),
  };
}
