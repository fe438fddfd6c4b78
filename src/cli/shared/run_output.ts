import { type DecisionRecord, estimateJson, pairedFactsJson, type RoundFacts } from "../../rundir/decision_file.ts";
import { benchmarkName, CANDIDATE_ARM } from "../../measure/measure_name.ts";
import { armMean, sideMeans } from "../../evaluation/side_means.ts";
import { roundSummary } from "../../views/round_view.ts";
import { decidedRoundStanding, mergeSha } from "../../evaluation/round_standing.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import { formatRoundTable } from "../../report/round_table.ts";
import { calibrationJson } from "../../rundir/calibration_file.ts";
import { crashJson } from "../../rundir/decision_file.ts";
import { formatCalibration } from "../../report/calibration_table.ts";
import type { PhaseOutcome } from "../../run/phase.ts";
import type { RunDir } from "../../rundir/run_dir.ts";
import { formatDecisionTable } from "../../report/verdict_table.ts";
import { EXIT, VERDICT_EXIT } from "../../exit_codes.ts";
import { type CliIo, outLine } from "./io.ts";
import type { CalibratedJson, DecidedJson, ParkedJson } from "../../output/outcome.ts";
import { benchmarkQuantities, quantitiesJson } from "../../evaluation/quantities.ts";

/**
 * Prints where a phase pass left the run and gives the exit code: a verdict's, or 75 for a park. A
 * decision's `--json` has decision.json's keys (`deltas` are differences, `benchmark` the improvement's
 * estimate) and, beside them, the two quantities under their own names: `improvement` and `difference`
 * (views/quantities.ts). A round's adds `winner` and `candidates` (`roundOutcomeJson`), and
 * prints its candidates' table beside the verdict.
 */
export function reportOutcome(
  io: CliIo,
  dir: RunDir,
  r: RunRecord,
  outcome: PhaseOutcome,
  json: boolean,
): number {
  const runDir = dir.path;
  if (outcome.kind === "parked") {
    const { pending, wake } = outcome;
    if (json) {
      const out: ParkedJson = {
        status: "parked",
        run_dir: runDir,
        pending: [...pending],
        wake_job: wake.jobId,
        dependency: wake.dependency,
        begin: wake.begin,
      };
      outLine(io, JSON.stringify(out));
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
    const out: CalibratedJson = { status: "calibrated", run_dir: runDir, ...calibrationJson(c) };
    if (json) outLine(io, JSON.stringify(out));
    else outLine(io, formatCalibration(c));
    return EXIT.ok;
  }
  const d = outcome.decision;
  if (json) {
    const out: DecidedJson = {
      status: "decided",
      run_dir: runDir,
      verdict: d.verdict,
      values: d.values,
      deltas: d.deltas,
      // each side's mean over every pair it measured: a round's candidate is its winner's (null without one)
      means: sideMeans(d.values, d.round === undefined ? CANDIDATE_ARM : d.round.winner?.arm ?? null),
      ...quantitiesJson(benchmarkQuantities(d)),
      reasons: [...d.reasons],
      crash: d.crash === undefined ? null : crashJson(d.crash),
      base_sha: d.baseSha,
      candidate_sha: mergeSha(r, d),
      label: r.labels[(d.round === undefined ? CANDIDATE_ARM : d.round.winner?.arm ?? 0) - 1] ?? "",
      baseline_source: d.baselineSource,
      decided_at: d.decidedAt,
      ...(d.paired === null ? {} : pairedFactsJson(d.paired)),
      ...(d.round === undefined ? {} : roundOutcomeJson(d.round, d.values, r.labels)),
    };
    outLine(io, JSON.stringify(out));
  } else {
    const relative = benchmarkQuantities(d)?.relative ?? null;
    const metric = { direction: r.contract.direction, unit: r.contract.unit, relative };
    outLine(io, formatDecisionTable(d, d.paired, false, roundText(r, d), metric));
    // a crash says what broke, with the end of its log: read it, fix or discard the proposal
    if (d.crash !== undefined) outLine(io, `crash: ${d.crash.message}`);
  }
  return VERDICT_EXIT[d.verdict];
}

/** A decided round's candidates for people (report/round_table.ts); undefined for one candidate. */
function roundText(r: RunRecord, d: DecisionRecord): string | undefined {
  if (d.round === undefined) return undefined;
  return formatRoundTable(roundSummary(r, decidedRoundStanding(d.round, d.values)), d.baseSha);
}

/**
 * What `resume --json` and `wait --json` add for a round: `winner` — `{arm,
 * measure, ref, sha, first_pair, last_pair, estimate}` (the estimate of its
 * improvement on the confirmation's pairs first_pair … last_pair, which did
 * not choose it, in decision.json's form), or null — and `candidates`, arm 1
 * first: `{arm, measure, ref, sha, winner, mean, verdict, standing, because,
 * pairs, screen, estimate, crash}` (`winner` true for the winner, whose
 * standing is `decided`; `mean` the mean of every value it measured;
 * `estimate` the one its verdict rests on, null for a candidate the screen
 * dropped; `screen` its screen's, descriptive;
 * `crash` its crash, `{measure, job_id, kind, cause, message}`, or null).
 */
function roundOutcomeJson(
  round: RoundFacts,
  values: Readonly<Record<string, number>>,
  labels: readonly string[],
): Pick<DecidedJson, "winner" | "candidates"> {
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
      label: labels[c.arm - 1] ?? "",
      winner: c.arm === w?.arm,
      // the mean of every value it measured (the screen's pairs, and the confirmation's for the leader)
      mean: armMean(values, c.arm),
      verdict: c.verdict,
      standing: c.standing,
      because: c.because,
      pairs: c.pairs,
      screen: c.screen && estimateJson(c.screen),
      estimate: c.estimate && estimateJson(c.estimate),
      // a crashed candidate's measure, job, kind, cause and message; null for every other
      crash: c.crash === undefined ? null : crashJson(c.crash),
    })),
  };
}
