// Tested by tests/run/watch_test.ts
import { type Advance, advanceRun } from "../plan/advance.ts";
import type { SampleSpread } from "../stats/samples.ts";
import { crashedMeasures } from "../rundir/crashes_file.ts";
import { checkDecision } from "./decision_check.ts";
import { type BenchmarkQuantities, benchmarkQuantities } from "./quantities.ts";
import { type RoundStanding, roundStanding } from "./round_standing.ts";
import type { RunSnapshot } from "./snapshot.ts";
import { type Standing, standingOf } from "./standing.ts";

/**
 * A run evaluated: one pure function of its snapshot that every command
 * renders — where the run stands, whether its decision follows from the
 * results beside it, where its looks (a round: its candidates) stand, the
 * benchmark's estimates and the samples' spread. `show`, `runs`, `report`,
 * `wait`, `cancel` and `resume --json` all read a run through this; none
 * works out any of it for itself.
 */
export interface RunEvaluation {
  readonly snapshot: RunSnapshot;
  readonly standing: Standing;
  /** Where `decision.json` does not follow from the results beside it, one sentence each; [] when it does (or there is none). */
  readonly disputes: readonly string[];
  /** Where the looks stand from the results on disk: the look an open run measures, or the one that decided. */
  readonly looks: Advance;
  /** A round's candidates (K ≥ 2); null for one candidate and for a calibration. */
  readonly round: RoundStanding | null;
  /** The benchmark's improvement and difference as the decision gives them; null while undecided. */
  readonly quantities: BenchmarkQuantities | null;
  /** The samples' spread by measure: the decision's, else what the results on disk give so far. */
  readonly samples: Readonly<Record<string, SampleSpread>>;
}

/** Evaluates a run from its snapshot (reading its results on disk, once, through the snapshot). */
export function evaluateRun(s: RunSnapshot): RunEvaluation {
  const standing = standingOf(s);
  const decision = standing.kind === "decided" ? standing.decision : null;
  let looks: Advance | undefined;
  return {
    snapshot: s,
    standing,
    disputes: decision === null ? [] : checkDecision(s, decision),
    get looks() {
      return looks ??= advanceRun(s.plan, s.results.values, {}, crashedMeasures(s.crashes));
    },
    round: s.record.candidates.length > 1 && s.record.kind === "measure" ? roundStanding(s, decision) : null,
    quantities: decision === null ? null : benchmarkQuantities(decision),
    samples: decision !== null ? { ...(decision.samples ?? {}) } : s.results.samples,
  };
}
