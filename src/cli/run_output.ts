import type { PhaseOutcome } from "../run/phase.ts";
import { VERDICT_EXIT } from "../run/decide.ts";
import { formatDecisionTable } from "../run/table.ts";
import { out } from "./common_args.ts";
import { EXIT } from "./errors.ts";

/** Prints where a phase pass left the run and gives the exit code: a verdict's, or 75 for a park. */
export function reportOutcome(runDir: string, outcome: PhaseOutcome, json: boolean): number {
  if (outcome.kind === "parked") {
    const { pending, wake } = outcome;
    if (json) {
      out(
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
      out(`parked: waiting on ${waiting}`);
      out(
        `wake job ${wake.jobId} will run "outerloop resume ${runDir}" ${
          wake.dependency ? "when they end" : `at ${wake.begin}`
        }`,
      );
    }
    return EXIT.parked;
  }
  const d = outcome.decision;
  if (json) {
    out(JSON.stringify({
      status: "decided",
      run_dir: runDir,
      verdict: d.verdict,
      values: d.values,
      deltas: d.deltas,
      reasons: d.reasons,
      base_sha: d.baseSha,
      candidate_sha: d.candidateSha,
      baseline_source: d.baselineSource,
      decided_at: d.decidedAt,
    }));
  } else {
    out(formatDecisionTable(d));
  }
  return VERDICT_EXIT[d.verdict];
}
