import {
  type DecisionRecord,
  estimateJson,
  type PairedFacts,
  pairedFactsJson,
  type RoundFacts,
  roundJson,
} from "../../rundir/decision_file.ts";
import { benchmarkName } from "../../measure/measure_name.ts";
import { readRoundStanding, type RoundStanding, roundSummary } from "../../views/round_view.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import { formatRoundTable } from "../../report/round_table.ts";
import { type CalibrationRecord, differenceBounds } from "../../rundir/calibration_file.ts";
import { formatCalibration } from "../../report/calibration_table.ts";
import type { PhaseOutcome } from "../../run/phase.ts";
import type { RunDir } from "../../rundir/run_dir.ts";
import { formatDecisionTable } from "../../report/verdict_table.ts";
import { EXIT, VERDICT_EXIT } from "../../exit_codes.ts";
import { type CliIo, outLine } from "./io.ts";
import { benchmarkQuantities, quantitiesJson } from "../../views/quantities.ts";

/**
 * Prints where a phase pass left the run and gives the exit code: a verdict's, or 75 for a park. A
 * decision's `--json` has decision.json's keys (`deltas` are differences, `benchmark` the improvement's
 * estimate) and, beside them, the two quantities under their own names: `improvement` and `difference`
 * (views/quantities.ts). A round's adds `winner` and `candidates` (`roundOutcomeJson`), and
 * prints its candidates' table beside the verdict.
 */
export function reportOutcome(io: CliIo, dir: RunDir, outcome: PhaseOutcome, json: boolean): number {
  const runDir = dir.path;
  if (outcome.kind === "parked") {
    const { pending, wake } = outcome;
    if (json) {
      outLine(
        io,
        JSON.stringify({
          status: "parked",
          run_dir: runDir,
          pending,
          wake_job: wake.jobId,
          dependency: wake.dependency,
          begin: wake.begin,
        }),
      );
    } else {
      const waiting = pending.length
        ? `job(s) ${pending.join(", ")}`
        : "a queue that could not be read (deadline wake)";
      outLine(io, `parked: waiting on ${waiting}`);
      outLine(
        io,
        `wake job ${wake.jobId} will run "outerloop resume ${runDir}" ${
          wake.dependency ? "when they end" : `at ${wake.begin}`
        }`,
      );
    }
    return EXIT.parked;
  }
  if (outcome.kind === "calibrated") {
    const c = outcome.calibration;
    if (json) outLine(io, JSON.stringify({ status: "calibrated", run_dir: runDir, ...calibrationJson(c) }));
    else outLine(io, formatCalibration(c));
    return EXIT.ok;
  }
  const d = outcome.decision;
  if (json) {
    outLine(
      io,
      JSON.stringify({
        status: "decided",
        run_dir: runDir,
        verdict: d.verdict,
        values: d.values,
        deltas: d.deltas,
        ...quantitiesJson(benchmarkQuantities(d)),
        reasons: d.reasons,
        base_sha: d.baseSha,
        candidate_sha: d.candidateSha,
        baseline_source: d.baselineSource,
        decided_at: d.decidedAt,
        ...pairedJson(d.paired),
        ...(d.round === undefined ? {} : roundOutcomeJson(d.round)),
      }),
    );
  } else {
    outLine(io, formatDecisionTable(d, d.paired, false, roundText(dir, d)));
  }
  return VERDICT_EXIT[d.verdict];
}

/** A decided round's candidates for people (report/round_table.ts); undefined for one candidate. */
export function roundText(dir: RunDir, d: DecisionRecord): string | undefined {
  if (d.round === undefined) return undefined;
  const r = readRunRecord(dir);
  const { standing, values } = readRoundStanding(dir, r, d);
  return formatRoundTable(roundSummary(r, standing, values), d.baseSha);
}

/** A repeated design's facts as decision.json keeps them (nothing for a single pair). */
export function pairedJson(p: PairedFacts | null): Record<string, unknown> {
  if (p === null) return {};
  return pairedFactsJson(p);
}

/** A calibration as `--json` prints it: calibration.json's keys (`mean`, `lower`, `upper` of the difference). */
export function calibrationJson(c: CalibrationRecord): Record<string, unknown> {
  return {
    benchmark: c.benchmark,
    base_sha: c.baseSha,
    metric: c.metric,
    direction: c.direction,
    n: c.n,
    ...differenceBounds(c),
    improvement: { mean: c.mean, lower: c.lower, upper: c.upper },
    sd: c.sd,
    confidence: c.confidence,
    biased: c.biased,
    detectable: c.detectable,
    siblings: Object.fromEntries(
      Object.entries(c.siblings).map(([name, s]) => [name, {
        metric: s.metric,
        direction: s.direction,
        n: s.n,
        improvement: { mean: s.mean, lower: s.lower, upper: s.upper },
        sd: s.sd,
        biased: s.biased,
      }]),
    ),
    suggestion: {
      min_effect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      max_repeats: c.suggestion.maxRepeats,
      siblings: c.suggestion.siblings,
    },
    derivation: c.derivation,
    seeds: c.seeds,
    differences: c.differences,
  };
}

/**
 * What `resume --json` and `wait --json` add for a round: `winner` — `{arm,
 * measure, ref, sha, first_pair, last_pair, estimate}` (the estimate of its
 * improvement on the confirmation's pairs first_pair … last_pair, which did
 * not choose it, in decision.json's form), or null — and `candidates`, arm 1
 * first: `{arm, measure, ref, sha, verdict, standing, because, pairs,
 * screen, estimate}` (`estimate` the one its verdict rests on, null for a
 * candidate the screen dropped; `screen` its screen's, descriptive).
 */
export function roundOutcomeJson(round: RoundFacts): Record<string, unknown> {
  const w = round.winner;
  const wc = w === null ? undefined : round.candidates.find((c) => c.arm === w.arm);
  return {
    winner: w === null ? null : {
      arm: w.arm,
      measure: benchmarkName(w.arm),
      ref: wc?.ref ?? "",
      sha: wc?.sha ?? "",
      first_pair: w.firstPair,
      last_pair: w.lastPair,
      estimate: estimateJson(w.estimate),
    },
    candidates: round.candidates.map((c) => ({
      arm: c.arm,
      measure: benchmarkName(c.arm),
      ref: c.ref,
      sha: c.sha,
      verdict: c.verdict,
      standing: c.standing,
      because: c.because,
      pairs: c.pairs,
      screen: c.screen && estimateJson(c.screen),
      estimate: c.estimate && estimateJson(c.estimate),
    })),
  };
}

/**
 * `show --json`'s `round`: decision.json's `round` (its keys as they are,
 * each candidate with its `measure` name beside them), or for an open round
 * where its complete batches leave it — `n` the pairs complete, `winner`
 * null, each candidate's `standing` (`in-play` or `dropped`) with the
 * screen's estimate so far, a candidate in play with a provisional verdict
 * (`inconclusive`) — with `open` and `next`, the batch it measures now
 * (`{stage, first_pair, last_pair, arms}`, null once it asks for nothing more).
 */
export function roundStandingJson(s: RoundStanding): Record<string, unknown> {
  const facts = roundJson(s.facts);
  return {
    open: s.open,
    ...facts,
    candidates: facts.candidates.map(({ arm, ...c }) => ({ arm, measure: benchmarkName(arm), ...c })),
    next: s.next && {
      stage: s.next.stage,
      first_pair: s.next.firstPair,
      last_pair: s.next.lastPair,
      arms: [...s.next.arms],
    },
  };
}
