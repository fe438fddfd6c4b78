import { advanceRun } from "../plan/advance.ts";
import {
  type CrashFacts,
  type DecisionRecord,
  type RoundCandidateFacts,
  type RoundFacts,
  roundJson,
} from "../rundir/decision_file.ts";
import { benchmarkName, parseMeasureName } from "../measure/measure_name.ts";
import { planRound, type RoundDecisionWithCrashes, type RoundNext } from "../verdict/round.ts";
import { crashedMeasures } from "../rundir/crashes_file.ts";
import type { RunSnapshot } from "./snapshot.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { armMean } from "./side_means.ts";

/**
 * Where a round of K ≥ 2 candidates stands, the one answer `show`, `runs`,
 * the reports, `resume` and `wait` give: a decided round's is its
 * decision's (`round` in decision.json); an open round's is what its
 * complete batches decide, walked from the results on disk as the pass
 * walks them (plan/advance.ts) — which candidates are still in play, which
 * the screen dropped and why, and the batch it measures now. Never asks the
 * scheduler.
 */

/** The batch an open round is measuring: pairs firstPair … lastPair of the baseline and `arms`. */
export interface RoundBatchNow {
  /** "screen", "confirm" (fresh pairs for the screen's choice) or "simultaneous". */
  readonly stage: string;
  readonly firstPair: number;
  readonly lastPair: number;
  readonly arms: readonly number[];
}

/** A round's facts (the decision's, or the open round's so far) and, while open, the batch it measures now. */
export interface RoundStanding {
  readonly facts: RoundFacts;
  /** No decision.json yet. */
  readonly open: boolean;
  /** The batch the open round measures now; null once it asks for nothing more (and for a decided round). */
  readonly next: RoundBatchNow | null;
  /** Every value by measure name the facts rest on: the decision's, else the results on disk. */
  readonly values: Readonly<Record<string, number>>;
}

/**
 * The round's standing: `decision`'s (the run's, when its standing is
 * decided), else what its results on disk give.
 */
export function roundStanding(s: RunSnapshot, decision: DecisionRecord | null): RoundStanding {
  const r = s.record;
  if (decision?.round !== undefined) return decidedRoundStanding(decision.round, decision.values);
  const values = s.results.values;
  const a = advanceRun(s.plan, values, {}, crashedMeasures(s.crashes));
  const last = a.walked.at(-1);
  const d: RoundDecisionWithCrashes | null = last?.kind === "round" ? last.decision : null;
  const next: RoundNext = d?.next ?? planRound(r.contract, r.candidates.length);
  const seeds = last?.plan.seeds ?? [];
  const facts: RoundFacts = {
    procedure: d?.procedure ?? "",
    seeds,
    n: seeds.length,
    winner: null,
    candidates: r.candidates.map((c, i): RoundCandidateFacts => {
      const call = d?.calls[i];
      return {
        arm: i + 1,
        ref: c.ref,
        sha: c.sha,
        verdict: call?.verdict ?? "inconclusive",
        standing: call?.standing ?? "in-play",
        because: call?.because ?? null,
        pairs: call?.pairs ?? 0,
        screen: call?.screen ?? null,
        estimate: call?.estimate ?? null,
        siblings: call?.siblings ?? {},
        reason: call?.reason ?? "",
        ...crashOf(s, i + 1),
      };
    }),
  };
  const now = next.kind === "more"
    ? { stage: next.stage, firstPair: next.firstPair, lastPair: next.firstPair + next.pairs - 1, arms: next.arms }
    : null;
  return { facts, open: true, next: now, values };
}

/**
 * The commit a script merges: the candidate's sha for a run of one
 * candidate; for a round its winner's, null while it has none (open, or no
 * winner) — never the first candidate's just because it was given first.
 * What every `--json`'s top-level `candidate_sha` is, and decision.json's
 * own (`mergeShaOf`; a file from before issue 30 read back as its winner's).
 */
export function mergeSha(r: RunRecord, decision: DecisionRecord | null): string | null {
  if (r.candidates.length <= 1) return r.candidateSha;
  return decision?.candidateSha ?? null;
}

/** The crash of candidate `arm` as the facts keep it: its first crashed measure's, or nothing. */
function crashOf(s: RunSnapshot, arm: number): { crash?: CrashFacts } {
  const c = s.crashes.find((x) => parseMeasureName(x.measure)?.arm === arm);
  return c === undefined
    ? {}
    : { crash: { measure: c.measure, jobId: c.jobId, kind: c.kind, cause: c.cause, message: c.message } };
}

/** A decided round's standing: its decision's facts and values. */
export function decidedRoundStanding(facts: RoundFacts, values: Readonly<Record<string, number>>): RoundStanding {
  return { facts, open: false, next: null, values };
}

/**
 * `show --json`'s `round`: decision.json's `round` (its keys as they are,
 * each candidate with its `measure` name beside them), or for an open round
 * where its complete batches leave it, each candidate with its `measure`
 * name, `label` (`labels`, by arm), `winner` (true for the winner) and
 * `mean` (of every value it measured) beside them — `n` the pairs complete, `winner`
 * null, each candidate's `standing` (`in-play` or `dropped`) with the
 * screen's estimate so far, a candidate in play with a provisional verdict
 * (`inconclusive`) — with `open` and `next`, the batch it measures now
 * (`{stage, first_pair, last_pair, arms}`, null once it asks for nothing more).
 */
export function roundStandingJson(s: RoundStanding, labels: readonly string[] = []) {
  const facts = roundJson(s.facts);
  return {
    open: s.open,
    ...facts,
    candidates: facts.candidates.map(({ arm, ...c }) => ({
      arm,
      measure: benchmarkName(arm),
      // what it tries: --label, else its commit's subject; "" when none is known
      label: labels[arm - 1] ?? "",
      // the winner's standing is `decided`: this says which it is (show prints "decided: winner")
      winner: arm === s.facts.winner?.arm,
      // the mean of every value it measured so far
      mean: armMean(s.values, arm),
      ...c,
    })),
    next: s.next && {
      stage: s.next.stage,
      first_pair: s.next.firstPair,
      last_pair: s.next.lastPair,
      arms: [...s.next.arms],
    },
  };
}
