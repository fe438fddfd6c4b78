// Tested by tests/run/watch_test.ts
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { BadInputError } from "../errors.ts";
import { evaluateRun, type RunEvaluation } from "../evaluation/evaluate.ts";
import type { BenchmarkQuantities } from "../evaluation/quantities.ts";
import { readRunSnapshot } from "../evaluation/snapshot.ts";
import { BASE_ARM, benchmarkName, CANDIDATE_ARM } from "../measure/measure_name.ts";
import type { ImprovementEstimate, PairValues, RelativeEstimate, RunState, RunSummary } from "../report/model.ts";
import { crashSummary } from "./crash_summary.ts";
import { setAsideReason } from "../verdict/set_aside_reason.ts";
import { failureHeadline } from "../rundir/failure_file.ts";
import { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { roundSummary } from "./round_view.ts";
import { mergeSha } from "../evaluation/round_standing.ts";
import { sideMeans } from "../evaluation/side_means.ts";

/**
 * A run dir as the reports see it (`RunSummary`), from its files alone —
 * `run.json`, `decision.json`, `failure.json`, `cancelled.json` and the
 * results its evals left — never asking the scheduler: `outerloop runs` and
 * `outerloop report` read a climb of hundreds of runs in a blink, offline.
 * The state is the run's standing (standing.ts); a decision is checked
 * against the results beside it, and its disagreements kept (`disputes`).
 * A round of K ≥ 2 candidates brings where it stands (round_view.ts).
 */
export function summarizeRun(dir: RunDir): RunSummary {
  return summaryOf(evaluateRun(readRunSnapshot(dir)));
}

/** A run's summary from its evaluation. */
function summaryOf(e: RunEvaluation): RunSummary {
  const { record: r, dir } = e.snapshot;
  const s = e.standing;
  const decision = s.kind === "decided" ? s.decision : null;
  const state: RunState = s.kind;
  const values = decision ? { ...decision.values } : { ...e.snapshot.results.values };
  const round = e.round === null ? null : roundSummary(r, e.round);
  const ended = decision?.decidedAt ?? (s.kind === "calibrated" ? s.calibration.calibratedAt : null) ??
    (s.kind === "cancelled" ? s.cancel.cancelledAt : null) ?? (s.kind === "failed" ? s.failure.failedAt : null);
  const q = e.quantities;
  const improvement = q === null ? null : improvementOf(q);
  return {
    runDir: dir.path,
    tag: r.runTag,
    kind: r.kind,
    createdAt: r.createdAt,
    backend: r.compute,
    benchmark: r.contract.name,
    metric: r.contract.metric,
    unit: r.contract.unit,
    direction: r.contract.direction,
    minEffect: minEffectInUnits(r.contract, values),
    minEffectWritten: r.contract.minEffectScale === "relative"
      ? `${Number((r.contract.minEffect * 100).toPrecision(12))}%`
      : r.contract.minEffect,
    baseSha: r.baseSha,
    candidateSha: mergeSha(r, decision),
    label: round === null ? r.labels[0] ?? "" : round.arms.find((a) => a.winner)?.label ?? "",
    state,
    verdict: decision?.verdict ?? null,
    values,
    differences: decision ? { ...decision.deltas } : {},
    improvement,
    difference: q === null ? null : q.difference.mean,
    relative: relativeOfQuantities(q),
    samples: { ...e.samples },
    pairs: round === null ? pairsOf(values) : [],
    // each side's mean over every pair it measured (a crashed run's baseline is every pair's, not pair 1's);
    // a round's are its winner's, over its estimate's pairs (model.ts)
    ...(round === null ? { means: sideMeans(values, CANDIDATE_ARM) } : {}),
    round,
    reasons: decision ? [...decision.reasons] : [],
    decidedAt: decision?.decidedAt ?? null,
    wallSeconds: ended === null ? null : secondsBetween(r.createdAt, ended),
    failure: s.kind === "failed" ? failureHeadline(s.failure.message) : null,
    disputes: [...e.disputes],
    live: null,
    crash: decision?.crash === undefined ? null : crashSummary(decision.crash),
    calibration: s.kind === "calibrated" ? s.calibration : null,
  };
}

/**
 * The benchmark's improvement as the decision has it (views/quantities.ts):
 * a repeated design's estimate with its interval and the pairs it set aside,
 * or a single pair's improvement, which has no interval.
 */
function improvementOf(q: BenchmarkQuantities): ImprovementEstimate {
  const i = q.improvement;
  const interval = i.lower === null || i.upper === null || i.confidence === null
    ? null
    : { lower: i.lower, upper: i.upper, confidence: i.confidence };
  const why = i.setAside.length === 0 ? {} : { setAsideWhy: setAsideReason(i.method) };
  return { n: i.n, mean: i.mean, interval, setAside: i.setAside, ...why };
}

/** The relative change as the reports show it: the quantities' ratio without the method's name. */
function relativeOfQuantities(q: BenchmarkQuantities | null): RelativeEstimate | null {
  const r = q?.relative ?? null;
  return r === null ? null : { mean: r.mean, lower: r.lower, upper: r.upper, confidence: r.confidence };
}

/**
 * The run dirs of a climb: DIR's children holding a `run.json`, by name
 * (the reports order them by creation with `toClimb`).
 */
export function climbRunDirs(climbDir: string): RunDir[] {
  return readdirSync(climbDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isFile(join(climbDir, e.name, "run.json")))
    .map((e) => new RunDir(join(climbDir, e.name)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A climb as its files give it: every readable run, and each run dir skipped with what made it unreadable. */
export interface Climb {
  readonly runs: readonly RunSummary[];
  readonly skipped: readonly { readonly runDir: RunDir; readonly problem: BadInputError }[];
}

/**
 * Every run of a climb (`climbRunDirs`), summarized; a run dir whose files
 * cannot be read (a damaged or foreign run.json) is skipped, not fatal: one
 * bad run must not hide the hundred others.
 */
export function readClimb(climbDir: string): Climb {
  const runs: RunSummary[] = [];
  const skipped: { runDir: RunDir; problem: BadInputError }[] = [];
  for (const runDir of climbRunDirs(climbDir)) {
    try {
      runs.push(summarizeRun(runDir));
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      skipped.push({ runDir, problem: err });
    }
  }
  return { runs, skipped };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The benchmark's pairs in order, while both sides of each are known. */
function pairsOf(values: Readonly<Record<string, number>>): PairValues[] {
  const pairs: PairValues[] = [];
  for (let i = 1;; i++) {
    const baseline = values[benchmarkName(BASE_ARM, i)];
    const candidate = values[benchmarkName(CANDIDATE_ARM, i)];
    if (baseline === undefined || candidate === undefined) return pairs;
    pairs.push({ baseline, candidate });
  }
}

/** `RunSummary.minEffect`: the contract's min_effect in the metric's units, a relative one at the baseline's mean. */
function minEffectInUnits(c: RunRecord["contract"], values: Readonly<Record<string, number>>): number {
  if (c.minEffectScale !== "relative") return c.minEffect;
  const base = Object.entries(values).filter(([k]) => /^baseline(#\d+)?$/.test(k)).map(([, v]) => v);
  if (base.length === 0) return 0;
  const b = base.reduce((s, x) => s + x, 0) / base.length;
  return Math.abs(c.direction === "maximize" ? b * c.minEffect : b * (1 - 1 / (1 + c.minEffect)));
}

function secondsBetween(from: string, to: string): number | null {
  const s = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(s) ? s : null;
}
