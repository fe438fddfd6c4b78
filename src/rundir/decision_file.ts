import * as z from "zod/mini";
import type { CandidateVerdict } from "../verdict/crashed.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { Decision, Estimate, SiblingEstimate } from "../verdict/decide.ts";
import type { RelativeEstimate } from "../stats/relative.ts";
import type { RunDir } from "./run_dir.ts";
import { isPlainDecision } from "./decision_fast.ts";
import { readRunFile, runIdentity, type RunRecord, RunRecordError, shaSchema } from "./run_record.ts";
import { usageFromJson, usageJson, usageSchema } from "../rundir/usage_json.ts";
import type { JobUsage } from "../compute/usage.ts";
import type { SampleSpread } from "../stats/samples.ts";
import { type Provenance, provenanceJson } from "../dispatch/provenance.ts";

/**
 * `decision.json`: the verdict of a finished run, written once the last
 * measurement is in, with what it was decided on — the shas, the run's
 * identity, the direction, min_effect, where the baseline came from and, for
 * a repeated design, the seeds, the number of pairs and every estimate with
 * its interval and method (with the pairs it set aside, `set_aside`) — so
 * the file alone answers "why"; when the scheduler said, what each measured
 * job used (`usage`); and for measures that reported several samples, their
 * spread (`samples`). Its presence
 * marks a run as decided, but only the run it names: a decision of another
 * run (left over, or copied in) is refused, never returned.
 */

const ratioShape = lazy(() => ({
  n: wholeNumber(1),
  mean: z.number(),
  lower: z.number(),
  upper: z.number(),
  confidence: z.number(),
  method: z.string(),
  // the pairs the method's estimate set aside (1-based); absent when none, and in decisions from before it
  set_aside: z.optional(z.array(wholeNumber(1))),
}));

const estimateShape = ratioShape;

/** An estimate with its interval, as decision.json keeps it (and every `--json` that gives one). */
export const estimateSchema = lazy(() => strict(estimateShape()));

/** A sibling's or guard's estimate with its standing. */
export const standingEstimateSchema = lazy(() =>
  strict({ ...estimateShape(), standing: z.enum(["held", "unsure", "regressed"]) })
);

/**
 * The relative figures (src/stats/relative.ts): the candidate/baseline ratio
 * with its interval for the benchmark, each sibling and each guard; null for
 * one with a value <= 0 (no ratio). A key of its own beside the estimates, so
 * an estimate's keys stay what they were.
 */
const relativeShape = () =>
  strict({
    benchmark: z.nullable(strict(ratioShape())),
    siblings: z.optional(z.record(z.string(), z.nullable(strict(ratioShape())))),
    guards: z.optional(z.record(z.string(), z.nullable(strict(ratioShape())))),
  });

/** A ratio estimate in its stored form: `set_aside` only when pairs were set aside. */
function ratioJson(r: RelativeEstimate) {
  const { setAside, ...rest } = r;
  return { ...rest, ...(setAside.length === 0 ? {} : { set_aside: [...setAside] }) };
}

/** An estimate in its stored form: `set_aside` only when the method set pairs aside; its ratio is stored apart. */
export function estimateJson<T extends Estimate>(e: T) {
  const { setAside, relative: _, ...rest } = e;
  return { ...rest, ...(setAside.length === 0 ? {} : { set_aside: [...setAside] }) };
}

/** The relative figures of a decision, as `DecisionRecord.relative` holds them. */
export interface RelativeFacts {
  readonly benchmark: RelativeEstimate | null;
  /** By sibling name; absent without siblings. */
  readonly siblings?: Readonly<Record<string, RelativeEstimate | null>>;
  /** By guard metric; absent without guards. */
  readonly guards?: Readonly<Record<string, RelativeEstimate | null>>;
}

/** `RelativeFacts` in the stored form. */
function relativeFactsJson(r: RelativeFacts) {
  const of = (m: Readonly<Record<string, RelativeEstimate | null>>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v === null ? null : ratioJson(v)]));
  return {
    benchmark: r.benchmark === null ? null : ratioJson(r.benchmark),
    ...(r.siblings === undefined || Object.keys(r.siblings).length === 0 ? {} : { siblings: of(r.siblings) }),
    ...(r.guards === undefined || Object.keys(r.guards).length === 0 ? {} : { guards: of(r.guards) }),
  };
}

/** `RelativeFacts` read back. */
function relativeFactsFromJson(j: z.output<ReturnType<typeof relativeShape>>): RelativeFacts {
  const of = (m: Record<string, RatioJson | null>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v === null ? null : ratioFromJson(v)]));
  return {
    benchmark: j.benchmark === null ? null : ratioFromJson(j.benchmark),
    ...(j.siblings === undefined ? {} : { siblings: of(j.siblings) }),
    ...(j.guards === undefined ? {} : { guards: of(j.guards) }),
  };
}

/**
 * The relative figures a repeated design's estimates carry (`Estimate.relative`, from `decideLook`), or
 * undefined when the benchmark's says nothing (an estimate from before them).
 */
export function relativeOfPaired(p: PairedFacts): RelativeFacts | undefined {
  if (p.benchmark.relative === undefined) return undefined;
  const of = (m: Readonly<Record<string, Estimate>>) =>
    Object.fromEntries(Object.entries(m).flatMap(([k, v]) => v.relative === undefined ? [] : [[k, v.relative]]));
  return {
    benchmark: p.benchmark.relative,
    ...(Object.keys(p.siblings).length === 0 ? {} : { siblings: of(p.siblings) }),
    ...(p.guards === undefined || Object.keys(p.guards).length === 0 ? {} : { guards: of(p.guards) }),
  };
}

/** A ratio estimate as stored. */
interface RatioJson {
  n: number;
  mean: number;
  lower: number;
  upper: number;
  confidence: number;
  method: string;
  set_aside?: number[] | undefined;
}

/** A ratio estimate read back. */
function ratioFromJson(j: RatioJson): RelativeEstimate {
  const { set_aside, ...rest } = j;
  return { ...rest, setAside: set_aside ?? [] };
}

/** An estimate read back; an old file's (no `set_aside`) set nothing aside. */
function estimateFromJson<T extends RatioJson>(j: T): Omit<T, "set_aside"> & { setAside: number[] } {
  const { set_aside, ...rest } = j;
  return { ...rest, setAside: set_aside ?? [] };
}

/** A crashed candidate's crash as decision.json keeps it (and `--json` gives it). */
export const crashSchema = () =>
  strict({
    measure: z.string(),
    job_id: z.nullable(z.string()),
    kind: z.string(),
    cause: z.string(),
    message: z.string(),
  });

/**
 * Which measure of a candidate crashed and why: the measurer's failure of it
 * (measure/look_results.ts `MeasureFailure`), kept so every surface names the
 * same measure, job and cause.
 */
export interface CrashFacts {
  readonly measure: string;
  readonly jobId: string | null;
  /** How it failed: `exit`, `no-metric`, `timeout`, `vanished`, `lost`, `pair-hosts`. */
  readonly kind: string;
  /** One line. */
  readonly cause: string;
  /** The whole message, the output's tail included. */
  readonly message: string;
}

/** A crash in its stored form. */
export function crashJson(c: CrashFacts) {
  return { measure: c.measure, job_id: c.jobId, kind: c.kind, cause: c.cause, message: c.message };
}

function crashFromJson(j: { measure: string; job_id: string | null; kind: string; cause: string; message: string }) {
  return { measure: j.measure, jobId: j.job_id, kind: j.kind, cause: j.cause, message: j.message };
}

/** The spread of one measure's samples (`samples` of decision.json and `show --json`). */
export const samplesSchema = lazy(() =>
  strict({ n: wholeNumber(1), min: z.number(), median: z.number(), max: z.number() })
);

/** Where and when a measure's command ran (`provenance`). */
export const provenanceSchema = lazy(() =>
  strict({
    host: z.string(),
    started_at: z.string(),
    ended_at: z.string(),
    job_id: z.string(),
    node_list: z.string(),
    cpu_model: z.string(),
    cpus: z.string(),
    gpus: z.array(z.string()),
  })
);

/** The verdicts a candidate (or a decision) may have. */
export const verdictSchema = lazy(() => z.enum(["accept", "reject", "inconclusive", "crashed"]));

/** One candidate of a round, as decision.json keeps it (`show --json` adds its measure name, winner and mean). */
export const roundCandidateShape = lazy(() => ({
  arm: wholeNumber(1),
  ref: z.string(),
  sha: shaSchema(),
  verdict: verdictSchema(),
  standing: z.enum(["in-play", "dropped", "decided"]),
  because: z.nullable(z.string()),
  pairs: wholeNumber(0),
  screen: z.nullable(estimateSchema()),
  estimate: z.nullable(estimateSchema()),
  // the ratio of `estimate`'s pairs, else of the screen's; null for no ratio; absent before it
  relative: z.optional(z.nullable(strict(ratioShape()))),
  siblings: z.record(z.string(), standingEstimateSchema()),
  // by metric; absent for a contract without guards, and before them
  guards: z.optional(z.record(z.string(), standingEstimateSchema())),
  reason: z.string(),
  // a candidate that crashed (verdict "crashed") only
  crash: z.optional(crashSchema()),
}));

/** A round's winner as decision.json keeps it. */
export const roundWinnerSchema = lazy(() =>
  strict({
    arm: wholeNumber(1),
    ref: z.string(),
    sha: shaSchema(),
    first_pair: wholeNumber(1),
    last_pair: wholeNumber(1),
    estimate: estimateSchema(),
    // the winner's candidate/baseline ratio on the same pairs; absent before it
    relative: z.optional(z.nullable(strict(ratioShape()))),
  })
);

/** `decision.json`'s schema; decision_fast.ts mirrors it (exported for the test that holds the two side by side). */
export const decisionSchema = lazy(() =>
  strict({
    verdict: verdictSchema(),
    values: z.record(z.string(), z.number()),
    deltas: z.record(z.string(), z.number()),
    reasons: z.array(z.string()),
    // a candidate that crashed (verdict "crashed"): which measure, its job, how and why
    crash: z.optional(crashSchema()),
    base_sha: shaSchema(),
    // the commit to merge: the candidate's; a round's winner's, null without one (before issue 30 a round's
    // file named its first candidate here: read back as its winner's, `round.winner.sha`)
    candidate_sha: z.nullable(shaSchema()),
    decided_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    direction: z.enum(["maximize", "minimize"]),
    min_effect: z.number().check(z.minimum(0)),
    // "relative": min_effect is a fraction (0.02 for "2%") judged on the log ratio; absent for an absolute one
    min_effect_scale: z.optional(z.literal("relative")),
    // the candidate/baseline ratios of the benchmark, siblings and guards (a single pair's with no interval);
    // absent in decisions from before them
    relative: z.optional(relativeShape()),
    baseline_source: z.enum(["cached", "measured"]),
    // absent in decisions written before runs had an identity: those are checked by their shas alone
    run_identity: z.optional(z.string().check(z.regex(/^[0-9a-f]{40}$/))),
    // a repeated design (max_repeats > 1) only
    seeds: z.optional(z.array(wholeNumber(0))),
    n: z.optional(wholeNumber(1)),
    outcome: z.optional(z.string()),
    benchmark: z.optional(estimateSchema()),
    siblings: z.optional(z.record(z.string(), standingEstimateSchema())),
    // each guard's estimate and standing, by metric; a repeated design with guards only
    guards: z.optional(z.record(z.string(), standingEstimateSchema())),
    // what each measured job used, by measure name; only when the scheduler said
    usage: z.optional(z.record(z.string(), usageSchema())),
    // the spread of the samples behind a value, by measure name; only for measures that reported an array
    samples: z.optional(z.record(z.string(), samplesSchema())),
    // where and when each measure's command ran, by measure name; only for measures whose eval recorded it
    provenance: z.optional(z.record(z.string(), provenanceSchema())),
    // a round of K >= 2 candidates only: every candidate's call and the winner
    round: z.optional(strict({
      procedure: z.string(),
      seeds: z.array(wholeNumber(0)),
      n: wholeNumber(1),
      winner: z.nullable(roundWinnerSchema()),
      candidates: z.array(strict(roundCandidateShape())),
    })),
  })
);

/** `decision.json` as its schema reads it. */
type DecisionJson = z.output<ReturnType<typeof decisionSchema>>;

/** One candidate of a round as its decision keeps it. */
export interface RoundCandidateFacts {
  /** 1 … K: `candidate` (arm 1), `candidate-2`, …. */
  readonly arm: number;
  readonly ref: string;
  readonly sha: string;
  /** accept only for the winner; "crashed" for a candidate whose eval crashed. */
  readonly verdict: CandidateVerdict;
  /** in-play (never at a final decision), dropped (by the screen, or another's win), decided. */
  readonly standing: "in-play" | "dropped" | "decided";
  /** Why it left play (a screen rule, the look rule's kind, another candidate's win); null when it did not. */
  readonly because: string | null;
  /** The pairs it was measured on: 1 … pairs. */
  readonly pairs: number;
  /** Its estimate on the screen's pairs (descriptive: a screen chooses, it does not decide). */
  readonly screen: Estimate | null;
  /** The estimate its verdict rests on (its confirmation's); null when it was dropped before one. */
  readonly estimate: Estimate | null;
  readonly siblings: Readonly<Record<string, SiblingEstimate>>;
  /** Its guards' estimates, by metric; absent without guards. */
  readonly guards?: Readonly<Record<string, SiblingEstimate>>;
  /** One sentence with its numbers. */
  readonly reason: string;
  /** The crash, for a candidate that crashed; absent otherwise. */
  readonly crash?: CrashFacts;
}

/** What a round of K ≥ 2 candidates adds to its decision (verdict/round.ts). */
export interface RoundFacts {
  readonly procedure: string;
  /** Pair i's seed at index i − 1. */
  readonly seeds: readonly number[];
  /** Pairs measured: the screen's and the confirmation's. */
  readonly n: number;
  /** The accepted candidate with the best improvement, its estimate on the pairs that did not choose it; null for none. */
  readonly winner: {
    readonly arm: number;
    /** The winner's ref as given and its sha: the commit to merge (what `candidate_sha` is too). */
    readonly ref: string;
    readonly sha: string;
    readonly firstPair: number;
    readonly lastPair: number;
    readonly estimate: Estimate;
  } | null;
  readonly candidates: readonly RoundCandidateFacts[];
}

/** A ratio or null in the stored form. */
function ratioOrNull(r: RelativeEstimate | null) {
  return r === null ? null : ratioJson(r);
}

/** A round candidate's `relative`: its estimate's ratio, else its screen's; no key when neither has one. */
function candidateRelative(c: RoundCandidateFacts) {
  const r = c.estimate !== null ? c.estimate.relative : c.screen?.relative;
  return r === undefined ? {} : { relative: ratioOrNull(r) };
}

/** A round's facts in decision.json's form (`show --json` gives them so too). */
export function roundJson(r: RoundFacts) {
  const sibs = (s: Readonly<Record<string, SiblingEstimate>>) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, estimateJson(v)]));
  return {
    procedure: r.procedure,
    seeds: [...r.seeds],
    n: r.n,
    winner: r.winner && {
      arm: r.winner.arm,
      ref: r.winner.ref,
      sha: r.winner.sha,
      first_pair: r.winner.firstPair,
      last_pair: r.winner.lastPair,
      estimate: estimateJson(r.winner.estimate),
      ...(r.winner.estimate.relative === undefined ? {} : { relative: ratioOrNull(r.winner.estimate.relative) }),
    },
    candidates: r.candidates.map((c) => ({
      arm: c.arm,
      ref: c.ref,
      sha: c.sha,
      verdict: c.verdict,
      standing: c.standing,
      because: c.because,
      pairs: c.pairs,
      screen: c.screen && estimateJson(c.screen),
      estimate: c.estimate && estimateJson(c.estimate),
      ...candidateRelative(c),
      siblings: sibs(c.siblings),
      ...(c.guards === undefined || Object.keys(c.guards).length === 0 ? {} : { guards: sibs(c.guards) }),
      reason: c.reason,
      ...(c.crash === undefined ? {} : { crash: crashJson(c.crash) }),
    })),
  };
}

/** What a repeated design adds: the pairs' seeds and the estimates the verdict rests on. */
export interface PairedFacts {
  /** Pair i's seed at index i − 1 (0: the benchmark has no seed). */
  readonly seeds: readonly number[];
  /** Pairs measured. */
  readonly n: number;
  /** How the last look ended (`accepted`, `futile`, …). */
  readonly outcome: string;
  readonly benchmark: Estimate;
  readonly siblings: Readonly<Record<string, SiblingEstimate>>;
  /** The guards' estimates, by metric; absent (and not written) without guards. */
  readonly guards?: Readonly<Record<string, SiblingEstimate>>;
}

/** A decision with the facts it was made on, as stored in `decision.json`. */
export interface DecisionRecord extends Omit<Decision, "verdict"> {
  /** The verdict; "crashed" when the candidate's eval crashed (a round: every candidate did). */
  readonly verdict: CandidateVerdict;
  /** A single candidate's crash (verdict "crashed"); absent otherwise (a round keeps each candidate's). */
  readonly crash?: CrashFacts;
  readonly baseSha: string;
  /**
   * The commit to merge: the candidate's sha; a round's winner's, null when it has none (`mergeSha`).
   * A round decided before issue 30 stored its first candidate's: read back as its winner's.
   */
  readonly candidateSha: string | null;
  /** `runIdentity` of the run it decided; null in decisions from before runs had one. */
  readonly runIdentity: string | null;
  /** When the decision was made (ISO 8601). */
  readonly decidedAt: string;
  /** The benchmark's direction. */
  readonly direction: "maximize" | "minimize";
  readonly minEffect: number;
  /** "relative": `minEffect` is a fraction judged on the log ratio; absent (and not written) for an absolute one. */
  readonly minEffectScale?: "absolute" | "relative";
  /**
   * The relative figures; written from here, else from a repeated design's
   * estimates (`relativeOfPaired`); absent (and not written) when neither
   * has them. A single pair's: the ratio with no interval.
   */
  readonly relative?: RelativeFacts;
  /** "cached": the baseline value came from the baseline cache; "measured": from this run. */
  readonly baselineSource: "cached" | "measured";
  /** Set for a repeated design (max_repeats > 1); null for a single pair, whose file keeps today's keys. */
  readonly paired: PairedFacts | null;
  /** What each measured job used, by measure name; absent (and not written) when nothing is known. */
  readonly usage?: Readonly<Record<string, JobUsage>>;
  /**
   * The spread of the samples behind each value, by measure name, for the
   * measures whose benchmark reported an array (src/evaluation/results_on_disk.ts);
   * absent (and not written) when none did.
   */
  readonly samples?: Readonly<Record<string, SampleSpread>>;
  /** Where and when each measure's command ran (its eval's `provenance`); absent (and not written) when none recorded it. */
  readonly provenance?: Readonly<Record<string, Provenance>>;
  /** A round of K ≥ 2 candidates: every candidate's call and the winner; absent for one candidate. */
  readonly round?: RoundFacts;
}

/** A repeated design's facts in their stored form (snake_case, `set_aside` only when pairs were set aside). */
export function pairedFactsJson(p: PairedFacts) {
  return {
    seeds: [...p.seeds],
    n: p.n,
    outcome: p.outcome,
    benchmark: estimateJson(p.benchmark),
    siblings: Object.fromEntries(Object.entries(p.siblings).map(([k, v]) => [k, estimateJson(v)])),
    ...(p.guards === undefined || Object.keys(p.guards).length === 0
      ? {}
      : { guards: Object.fromEntries(Object.entries(p.guards).map(([k, v]) => [k, estimateJson(v)])) }),
  };
}

/** Writes the decision to `<runDir>/decision.json`, atomically: a reader sees no decision or the whole one. */
export function writeDecision(dir: RunDir, d: DecisionRecord): void {
  const p = d.paired;
  const relative = d.relative ?? (p === null ? undefined : relativeOfPaired(p));
  const json = {
    verdict: d.verdict,
    values: { ...d.values },
    deltas: { ...d.deltas },
    reasons: [...d.reasons],
    ...(d.crash === undefined ? {} : { crash: crashJson(d.crash) }),
    base_sha: d.baseSha,
    candidate_sha: d.candidateSha,
    decided_at: d.decidedAt,
    direction: d.direction,
    min_effect: d.minEffect,
    ...(d.minEffectScale === "relative" ? { min_effect_scale: "relative" as const } : {}),
    ...(relative === undefined ? {} : { relative: relativeFactsJson(relative) }),
    baseline_source: d.baselineSource,
    ...(d.runIdentity === null ? {} : { run_identity: d.runIdentity }),
    ...(p === null ? {} : pairedFactsJson(p)),
    ...(d.usage === undefined || Object.keys(d.usage).length === 0
      ? {}
      : { usage: Object.fromEntries(Object.entries(d.usage).map(([k, u]) => [k, usageJson(u)])) }),
    ...(d.samples === undefined || Object.keys(d.samples).length === 0
      ? {}
      : { samples: Object.fromEntries(Object.entries(d.samples).map(([k, s]) => [k, { ...s }])) }),
    ...(d.provenance === undefined || Object.keys(d.provenance).length === 0
      ? {}
      : { provenance: Object.fromEntries(Object.entries(d.provenance).map(([k, p]) => [k, provenanceJson(p)])) }),
    ...(d.round === undefined ? {} : { round: roundJson(d.round) }),
  };
  const checked = isPlainDecision(json) ? { success: true as const } : decisionSchema().safeParse(json);
  if (!checked.success) {
    throw new TypeError(`Refusing to write an invalid decision:\n${z.prettifyError(checked.error)}`);
  }
  atomicWriteJson(dir.decision, json);
}

/**
 * The decision in the run dir, or null when it has not been decided. A
 * damaged file is a `RunRecordError` naming it and the bad field, and is
 * left as it is. With `record`, a decision of another run — other shas, or
 * another run identity — is refused the same way: it must never be read as
 * this run's verdict.
 */
export function readDecision(dir: RunDir, record?: RunRecord): DecisionRecord | null {
  const j = readRunFile(dir.decision, decisionSchema, "decision", (v) => isPlainDecision(v) ? v as DecisionJson : null);
  if (j === null) return null;
  if (record !== undefined && !decidesRecord(j, record)) {
    const shas = j.base_sha === record.baseSha && candidateShaFits(j, record);
    throw new RunRecordError(
      dir.decision,
      "other-run",
      `The decision ${JSON.stringify(dir.decision)} belongs to another run than ${JSON.stringify(dir.runRecord)} ` +
        `(its ${shas ? "run identity" : "shas"} differ); it is left as it is: move it away to measure this run ` +
        "here, or pick a new --run-dir",
    );
  }
  const paired: PairedFacts | null = j.seeds !== undefined && j.n !== undefined && j.benchmark !== undefined
    ? {
      seeds: j.seeds,
      n: j.n,
      outcome: j.outcome ?? "",
      benchmark: estimateFromJson(j.benchmark),
      siblings: Object.fromEntries(Object.entries(j.siblings ?? {}).map(([k, v]) => [k, estimateFromJson(v)])),
      ...(j.guards === undefined
        ? {}
        : { guards: Object.fromEntries(Object.entries(j.guards).map(([k, v]) => [k, estimateFromJson(v)])) }),
    }
    : null;
  return {
    verdict: j.verdict,
    values: j.values,
    deltas: j.deltas,
    reasons: j.reasons,
    ...(j.crash === undefined ? {} : { crash: crashFromJson(j.crash) }),
    baseSha: j.base_sha,
    // a round's file from before issue 30 names its first candidate: the commit to merge is its winner's
    candidateSha: j.round === undefined ? j.candidate_sha : j.round.winner?.sha ?? null,
    runIdentity: j.run_identity ?? null,
    decidedAt: j.decided_at,
    direction: j.direction,
    minEffect: j.min_effect,
    ...(j.min_effect_scale === undefined ? {} : { minEffectScale: j.min_effect_scale }),
    ...(j.relative === undefined ? {} : { relative: relativeFactsFromJson(j.relative) }),
    baselineSource: j.baseline_source,
    paired,
    ...(j.usage === undefined
      ? {}
      : { usage: Object.fromEntries(Object.entries(j.usage).map(([k, u]) => [k, usageFromJson(u)])) }),
    ...(j.samples === undefined ? {} : { samples: j.samples }),
    ...(j.provenance === undefined ? {} : {
      provenance: Object.fromEntries(
        Object.entries(j.provenance).map(([k, p]) => [k, {
          host: p.host,
          startedAt: p.started_at,
          endedAt: p.ended_at,
          jobId: p.job_id,
          nodeList: p.node_list,
          cpuModel: p.cpu_model,
          cpus: p.cpus,
          gpus: p.gpus,
        }]),
      ),
    }),
    ...(j.round === undefined ? {} : { round: roundFromJson(j.round) }),
  };
}

/**
 * Whether decision `j` is `record`'s: the same base, the same run identity
 * (when it has one), and a `candidate_sha` that fits (`candidateShaFits`).
 */
function decidesRecord(j: DecisionJson, record: RunRecord): boolean {
  return j.base_sha === record.baseSha && candidateShaFits(j, record) &&
    (j.run_identity === undefined || j.run_identity === runIdentity(record));
}

/**
 * A single candidate's decision names its sha; a round's names its winner
 * (one of the run's candidates), or null for none — or, written before
 * issue 30, the run's first candidate, whoever won.
 */
function candidateShaFits(j: DecisionJson, record: RunRecord): boolean {
  if (record.candidates.length <= 1) return j.candidate_sha === record.candidateSha;
  return j.candidate_sha === null || record.candidates.some((c) => c.sha === j.candidate_sha);
}

/**
 * The `candidate_sha` a decision of `record` stores: the candidate's, a
 * round's winner's, null for a round without one — the commit to merge, as
 * every `--json` gives it.
 */
export function mergeShaOf(record: RunRecord, round: RoundFacts | undefined): string | null {
  if (round === undefined || record.candidates.length <= 1) return record.candidateSha;
  return round.winner?.sha ?? null;
}

/** An estimate read back with the ratio stored beside it (none when the file has no `relative` there). */
function withRelative<T extends object>(
  e: T,
  r: RatioJson | null | undefined,
): T & { relative?: RelativeEstimate | null } {
  return r === undefined ? e : { ...e, relative: r === null ? null : ratioFromJson(r) };
}

function roundFromJson(j: z.output<ReturnType<typeof decisionSchema>>["round"] & object): RoundFacts {
  const sibs = (s: typeof j.candidates[number]["siblings"]) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, estimateFromJson(v)]));
  return {
    procedure: j.procedure,
    seeds: j.seeds,
    n: j.n,
    winner: j.winner && {
      arm: j.winner.arm,
      ref: j.winner.ref,
      sha: j.winner.sha,
      firstPair: j.winner.first_pair,
      lastPair: j.winner.last_pair,
      estimate: withRelative(estimateFromJson(j.winner.estimate), j.winner.relative),
    },
    candidates: j.candidates.map((c) => ({
      arm: c.arm,
      ref: c.ref,
      sha: c.sha,
      verdict: c.verdict,
      standing: c.standing,
      because: c.because,
      pairs: c.pairs,
      screen: c.screen &&
        (c.estimate === null ? withRelative(estimateFromJson(c.screen), c.relative) : estimateFromJson(c.screen)),
      estimate: c.estimate && withRelative(estimateFromJson(c.estimate), c.relative),
      siblings: sibs(c.siblings),
      ...(c.guards === undefined || Object.keys(c.guards).length === 0 ? {} : { guards: sibs(c.guards) }),
      reason: c.reason,
      ...(c.crash === undefined ? {} : { crash: crashFromJson(c.crash) }),
    })),
  };
}
