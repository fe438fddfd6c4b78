import { type PairedFacts, pairedFactsJson } from "../../rundir/decision_file.ts";
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
 * (views/quantities.ts).
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
      }),
    );
  } else {
    outLine(io, formatDecisionTable(d, d.paired));
  }
  return VERDICT_EXIT[d.verdict];
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
