import type { Compute } from "../compute/compute.ts";
import { SlurmError } from "../compute/errors.ts";
import { withListingUntilChange } from "../compute/one_listing.ts";
import { ownJobId } from "../compute/job_env.ts";
import { pinSha } from "../dispatch/pin.ts";
import { log } from "../log.ts";
import { BASE_ARM, benchmarkName, CANDIDATE_ARM, parseMeasureName } from "../measure/measure_name.ts";
import { MeasurementPending } from "../measure/pending.ts";
import {
  type CachedBaseline,
  cachedBaseline,
  cacheNotes,
  repeatedDesign,
  storeBaseline,
} from "../plan/baseline_source.ts";
import {
  type CrashFacts,
  type DecisionRecord,
  mergeShaOf,
  type RelativeFacts,
  relativeOfPaired,
  type RoundFacts,
  writeDecision,
} from "../rundir/decision_file.ts";
import type { LookDecision } from "../verdict/decide.ts";
import {
  crashedMeasures,
  readCrashes,
  readStopped,
  recordCrashes,
  recordStopped,
  type StoppedMeasure,
} from "../rundir/crashes_file.ts";
import { type LookResults, type MeasureFailure, SOON_SECONDS } from "../measure/look_results.ts";
import { acquireRunLock } from "./lock.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import { guardValues, missingGuards, type PassPlan, runPlan } from "../plan/run_plan.ts";
import { type Advance, advanceRun, type LookStep } from "../plan/advance.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { readRunRecord, runIdentity, type RunRecord, writeRunRecord } from "../rundir/run_record.ts";
import { retireWakes, submitWake } from "./wake.ts";
import { nodeLocalWarnings } from "./node_local.ts";
import { freshEntries, refusedStart, watchSubmits } from "./first_refusal.ts";
import { calibrationOf } from "../evaluation/calibration.ts";
import { type FinishedOutcome, finishedOutcome } from "../evaluation/outcome.ts";
import { readRunSnapshot } from "../evaluation/snapshot.ts";
import { writeCalibration } from "../rundir/calibration_file.ts";
import type { DispatchedMeasurer } from "../measure/measurer.ts";
import type { Measure } from "../measure/measure.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { MeasureFailedError } from "../measure/measure_failed.ts";
import { type Provenance, readProvenance } from "../dispatch/provenance.ts";
import { cancelWins, isCancelled, refuseCancelled } from "../rundir/cancel_file.ts";
import { sayOnStop } from "../runtime/live_groups.ts";
import { contractsFailure, endFailedRun } from "./failed_run.ts";
import { measureUsage, timeoutWarnings } from "../plan/run_usage.ts";
import type { WakeRecord } from "../rundir/wake_record.ts";
import { measureSamples } from "../evaluation/results_on_disk.ts";

/** Where one pass of the measure-and-decide phase left the run. */
export type PhaseOutcome =
  | FinishedOutcome
  | { readonly kind: "parked"; readonly pending: readonly string[]; readonly wake: WakeRecord };

export interface PhaseDeps {
  readonly compute: Compute;
  /** How the wake job runs this program again. */
  readonly self: readonly string[];
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
  /** This process's environment (a wake running inside Slurm knows its own job id). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long to wait for another process's run lock; default 0. */
  readonly lockWaitMs?: number;
}

/**
 * One pass over a run dir (what `resume` does): a decided run returns its
 * decision untouched; otherwise, under the run lock, every measure is read,
 * dispatched or found live; a pending set parks the run behind a wake job; a
 * complete set is decided and `decision.json` written. Everything is rebuilt
 * from `run.json`, so any number of passes, from any process, converge on
 * one decision. A run the user cancelled (`cancelled.json`) is refused with
 * `RunCancelledError` (exit 3) and nothing is dispatched. `record` is the
 * run dir's `run.json` when the caller has just read it (`resume` does, to
 * answer a finished run without a pass): a record of many siblings is not
 * cheap to read twice.
 */
export async function runPhase(dir: RunDir, deps: PhaseDeps, record = readRunRecord(dir)): Promise<PhaseOutcome> {
  const done = finishedOutcome(readRunSnapshot(dir, record));
  if (done) {
    // a wake job that finds its run finished (a leftover: a deadline wake, or one the deciding pass
    // could not cancel) retires the run's other wakes, so nothing of a finished run stays queued
    if (ownJobId(deps.env)) await retireWakes(deps.compute, record, dir, deps);
    return done;
  }
  refuseCancelled(dir);
  return await underLock(dir, record, deps, () =>
    cancelWins(dir, async () => {
      // another pass may have decided while we waited for the lock
      const now = finishedOutcome(readRunSnapshot(dir, record));
      if (now) return now;
      refuseCancelled(dir);
      return await passOrFail(dir, record, deps);
    }));
}

/**
 * Starts (or continues) a run (what `measure` does): under the run lock —
 * taken BEFORE the record is compared and written, so of two `measure`s
 * racing on one new run dir exactly one record ever wins and the other is
 * refused — freezes `record` as `run.json` (or keeps the same run's earlier
 * one), pins both shas in the repo, then makes the first pass. A fresh run
 * whose account, partition or QOS the scheduler refuses before any job of
 * it is submitted is left unfrozen, refused as bad input (first_refusal.ts).
 */
export async function startRun(dir: RunDir, record: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  return await underLock(dir, record, deps, async () => {
    const before = freshEntries(dir);
    const inForce = writeRunRecord(dir, record);
    // after every input check and the first submission: a refusal stays one line
    const warnings = inForce.compute === "local"
      ? []
      : nodeLocalWarnings({ runDir: dir.path, repo: inForce.repo, program: deps.self[0] ?? "" }, deps.env);
    const done = finishedOutcome(readRunSnapshot(dir, inForce));
    if (done) return done;
    refuseCancelled(dir);
    return await cancelWins(dir, async () => {
      await pinSha(inForce.repo, inForce.baseSha);
      for (const c of inForce.candidates) await pinSha(inForce.repo, c.sha);
      // a fresh run whose first submission names an account or partition the scheduler refuses is bad input
      const watch = watchSubmits(deps.compute);
      try {
        return await passOrFail(dir, inForce, { ...deps, compute: watch.compute });
      } catch (err) {
        const refused = refusedStart(dir, inForce, before, watch, err);
        if (refused !== err) warnings.length = 0;
        throw refused;
      } finally {
        for (const w of warnings) log.warn(w);
      }
    });
  });
}

async function underLock<T>(dir: RunDir, r: RunRecord, deps: PhaseDeps, fn: () => Promise<T>): Promise<T> {
  // a local pass measures synchronously and may outlast any age limit; its
  // holder's liveness (same host, pid) is what decides there
  const lock = await acquireRunLock(dir, {
    waitMs: deps.lockWaitMs ?? 0,
    now: deps.now,
    ...(r.compute === "local" ? { staleMs: Number.POSITIVE_INFINITY } : {}),
  });
  const unsay = sayOnStop((sig) => interruptedLine(dir, r, sig));
  try {
    return await fn();
  } finally {
    unsay();
    lock.release();
  }
}

/**
 * The line a pass leaves on stderr when this process is interrupted (Ctrl-C,
 * TERM, HUP) and dies of it: what was interrupted and how to go on.
 */
function interruptedLine(dir: RunDir, r: RunRecord, sig: string): string {
  const how = sig === "SIGINT" ? "Ctrl-C (SIGINT)" : sig;
  const resume = `"outerloop resume ${dir.path}"`;
  return r.compute === "local"
    ? `outerloop: interrupted by ${how}: stopped measuring run ${dir.path} (nothing of an unfinished eval is ` +
      `kept); ${resume} goes on and measures again what the interrupt stopped`
    : `outerloop: interrupted by ${how} during a pass over run ${dir.path}: the jobs already submitted keep ` +
      `running; ${resume} goes on (a job it was submitting is found by name)`;
}

/**
 * A pass; an eval failure (final by design) is recorded and the run's other
 * live jobs cancelled (`endFailedRun`) before it is rethrown — unless the run
 * was cancelled meanwhile: then the eval failed because the cancel stopped it
 * (a local run's), and the caller's `cancelWins` reports the cancel instead.
 */
async function passOrFail(dir: RunDir, r: RunRecord, given: PhaseDeps): Promise<PhaseOutcome> {
  // the measures and the wake read one listing, asked again only after a submit or a cancel
  const deps = { ...given, compute: withListingUntilChange(given.compute) };
  try {
    return await pass(dir, r, deps);
  } catch (err) {
    if (err instanceof EvalError && !isCancelled(dir)) await endFailedRun(dir, r, deps, err);
    throw err;
  }
}

/**
 * The pass proper: the run's looks (a round: its batches) advanced from the
 * values in hand (plan/advance.ts): the look it stands at is read,
 * dispatched or found live; a pending set parks the run; a complete set is
 * judged, and a look that calls for more pairs goes straight on to the next
 * look's batch. Looks are re-judged from the results on disk at every pass,
 * so the batch a pass dispatches is a pure function of the run dir, as the
 * plan is.
 */
async function pass(dir: RunDir, r: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  const measurer = measurerFor(dir, r, deps.compute, deps.now);
  const cache = cachedBaseline(dir, r, true);
  if (cache.kind !== "none") {
    const what = cache.kind === "value" ? String(cache.value) : `${cache.pairs.length} pair(s)`;
    log.info(`baseline ${what} from the cache (${r.contract.name}@${r.baseSha.slice(0, 12)})`);
  }
  if (r.kind === "calibrate") return await calibration(dir, r, deps, measurer);
  const plan = runPlan(r, cache);
  const values: Record<string, number> = {};
  let crashes = readCrashes(dir);
  let stopped = readStopped(dir);
  let logged = 0;
  for (;;) {
    const a = advanceRun(plan, values, {}, crashedMeasures(crashes));
    for (const step of a.walked.slice(logged)) logStep(step);
    logged = a.walked.length;
    if (a.step !== null) {
      if (!a.final) throw new Error(`The design's last look (${a.walked.length}) asked for more pairs`);
      return await conclude(dir, r, deps, measurer, cache, a.plan, a.step, crashes);
    }
    // the jobs a crash stopped are outerloop's own cancels: neither failures nor sent again
    const ours = new Set(stopped.flatMap((s) => (s.jobId === null ? [] : [s.jobId])));
    const measures = nextMeasures(r, a, new Set(stopped.map((s) => s.measure)));
    const look = await measurer.look(measures, { cancelledByUs: ours });
    const found = withGuards(r, look.values, look.metrics, look.jobIds);
    const { crashed, failed } = blame([...look.failed, ...found.failed]);
    // an eval a cancel stopped is the cancel's doing, never a failure or a crash: the caller reports the cancel
    if (look.failed.length > 0 && isCancelled(dir)) throw new EvalError(look.failed[0]!.message);
    // a baseline's failure (or the harness's) is the run's: nothing can be judged without it
    if (failed.length > 0) throw new MeasureFailedError(contractsFailure(r, failed[0]!));
    // a candidate's crash is a verdict on it: recorded, and the look goes on without it
    const known = new Set(crashes.map((c) => c.measure));
    for (const c of crashed) {
      if (!known.has(c.measure)) log.warn(`the candidate crashed: ${c.message}`);
    }
    crashes = recordCrashes(dir, crashed, deps.now());
    Object.assign(values, found.values);
    // fail fast: a crash stops what of its look can no longer count, then the look is walked again
    if (look.pending !== null && crashes.length > 0) {
      const more = await stopAfterCrash(dir, r, deps, a.plan.toMeasure, look, values, crashes, stopped);
      if (more !== null) {
        stopped = more;
        continue;
      }
    }
    if (look.pending !== null) {
      const recheck = look.pending.soon ? SOON_SECONDS : null;
      const watch = crashWatch(a.plan.toMeasure, look);
      return await park(dir, r, deps, new MeasurementPending(look.pending.jobIds, recheck, watch));
    }
  }
}

/**
 * What the pass measures of the look the run stands at (`a`), less what a
 * crash stopped:
 * - with `--smoke` (run.json's `smoke`), first the candidates' pair-1
 *   benchmark measures alone: a candidate that crashes every time is its
 *   crash verdict before the look is sent (the same measures the look
 *   would run first: nothing is measured twice);
 * - on the local backend, whose jobs run one after the other inside the
 *   pass, the look pair by pair, a pair's baseline before its candidates:
 *   a crash ends it before the next pair starts, so nothing of it is left
 *   to cancel, and a baseline's failure before its candidates run;
 * - else the whole look at once (its job arrays), as always.
 */
function nextMeasures(r: RunRecord, a: Advance, stopped: ReadonlySet<string>): Measure[] {
  const live = a.plan.toMeasure.filter((m) => !stopped.has(m.name));
  const missing = new Set(a.missing.map((m) => m.name));
  if (r.smoke) {
    const smoke = live.filter((m) => {
      const ref = parseMeasureName(m.name);
      return ref !== null && ref.sibling === null && ref.arm !== BASE_ARM && ref.pair === 1 && missing.has(m.name);
    });
    if (smoke.length > 0) return smoke;
  }
  if (r.compute !== "local") return live;
  const pairOf = (m: Measure) => parseMeasureName(m.name)?.pair ?? 1;
  const waiting = live.filter((m) => missing.has(m.name));
  if (waiting.length === 0) return live;
  const first = Math.min(...waiting.map(pairOf));
  const pair = waiting.filter((m) => pairOf(m) === first);
  // the pair's baseline first, alone where its measures are jobs of their own: a baseline that fails fails
  // the run, and the candidate it would be compared with is then never measured
  const base = pair.filter((m) => parseMeasureName(m.name)?.arm === BASE_ARM);
  return r.contract.pairing === "separate" && base.length > 0 ? base : pair;
}

/**
 * Fail fast: once a candidate crashed, what of the look can no longer count
 * is stopped — for a single candidate the whole rest of the look (its
 * verdict is the crash, given at once: nothing measured is judged), for a
 * round the crashed candidate's measures from the pair it crashed on (the
 * others go on). Every such measure still queued or running is recorded in
 * crashes.json's `stopped` first, then its job cancelled with one scancel —
 * outerloop's own cancel, neither a failure nor sent again — but a job that
 * also runs a measure that still counts (a round's pair job) is left to run.
 * What the baseline finished is kept (the decision's values, the cache).
 * The measures stopped so far, or null when there was nothing to stop.
 */
async function stopAfterCrash(
  dir: RunDir,
  r: RunRecord,
  deps: PhaseDeps,
  inLook: readonly Measure[],
  look: LookResults,
  values: Readonly<Record<string, number>>,
  crashes: readonly CrashFacts[],
  stopped: readonly StoppedMeasure[],
): Promise<StoppedMeasure[] | null> {
  const over = new Set([
    ...Object.keys(values),
    ...crashes.map((c) => c.measure),
    ...look.failed.map((f) => f.measure),
    ...stopped.map((s) => s.measure),
  ]);
  const armsCrashed = new Map<number, number>();
  for (const c of crashes) {
    const ref = parseMeasureName(c.measure);
    if (ref === null) continue;
    armsCrashed.set(ref.arm, Math.min(armsCrashed.get(ref.arm) ?? ref.pair, ref.pair));
  }
  const single = r.candidates.length === 1;
  const stops = (m: Measure) => {
    if (over.has(m.name)) return false;
    if (single) return inLook.some((x) => crashes.some((c) => c.measure === x.name));
    const ref = parseMeasureName(m.name);
    const from = ref === null ? undefined : armsCrashed.get(ref.arm);
    return from !== undefined && ref!.pair >= from;
  };
  const target = new Set(inLook.filter(stops).map((m) => m.name));
  // a job is cancelled only when every measure it runs is stopped (a round's pair job runs the others too)
  const jobOf = (name: string) => look.jobIds[name] ?? null;
  const shared = (id: string) => inLook.some((m) => jobOf(m.name) === id && !target.has(m.name));
  const toStop = inLook.filter((m) => target.has(m.name) && !(jobOf(m.name) !== null && shared(jobOf(m.name)!)))
    .map((m) => ({ measure: m.name, jobId: jobOf(m.name) }));
  if (toStop.length === 0) return null;
  const all = recordStopped(dir, toStop);
  const ids = [...new Set(toStop.flatMap((s) => (s.jobId === null ? [] : [s.jobId])))];
  if (ids.length > 0) {
    try {
      await deps.compute.cancelMany(ids);
      log.info(
        `the candidate crashed: stopped what of its look can no longer count, ${toStop.length} measure(s); ` +
          `cancelled job(s) ${ids.join(", ")}`,
      );
    } catch (err) {
      log.warn(`the candidate crashed, but its look's other jobs could not be cancelled (${(err as Error).message})`);
    }
  }
  return all;
}

/**
 * The look's values with the guards' values its benchmark measures' results
 * give (plan/run_plan.ts `guardValues`); a result without a guard's metric is
 * that measure's failure (`no-metric`, in the job that gave the result), its
 * value left out.
 */
function withGuards(
  r: RunRecord,
  values: Readonly<Record<string, number>>,
  metrics: Readonly<Record<string, Readonly<Record<string, number>>>>,
  jobIds: Readonly<Record<string, string>>,
): { values: Record<string, number>; failed: MeasureFailure[] } {
  const out: Record<string, number> = {};
  const failed: MeasureFailure[] = [];
  for (const [name, value] of Object.entries(values)) {
    const m = metrics[name] ?? {};
    const missing = missingGuards(r.contract, name, m);
    if (missing.length > 0) {
      const cause = `no guard metric ${missing.map((x) => JSON.stringify(x)).join(", ")} in its result`;
      const jobId = jobIds[name] ?? null;
      failed.push({ measure: name, jobId, kind: "no-metric", cause, message: `measure ${name}: ${cause}` });
      continue;
    }
    out[name] = value;
    Object.assign(out, guardValues(r.contract, name, m));
  }
  return { values: out, failed };
}

/**
 * Whose each failure is: a candidate's measure that crashed — its command
 * exited non-zero, gave no usable metric, ran past eval_minutes, or its job
 * died of its own (`vanished`) — is that candidate's crash (a sibling's
 * candidate side included: the candidate broke that benchmark); everything
 * else fails the run: any failure of the baseline's side (nothing can be
 * judged without it), a pair job split over hosts, and a job lost to the
 * machine more often than it is sent again (nobody's code: `resume
 * --retry-failed` takes it up once the cluster behaves).
 */
function blame(failures: readonly MeasureFailure[]): { crashed: CrashFacts[]; failed: MeasureFailure[] } {
  const crashed: CrashFacts[] = [];
  const failed: MeasureFailure[] = [];
  for (const f of failures) {
    const ref = parseMeasureName(f.measure);
    const candidates = ref !== null && ref.arm !== BASE_ARM;
    if (candidates && f.kind !== "lost" && f.kind !== "pair-hosts") {
      crashed.push({ measure: f.measure, jobId: f.jobId, kind: f.kind, cause: f.cause, message: f.message });
    } else failed.push(f);
  }
  return { crashed, failed };
}

/** The log line of a look (a round's batches) that asked for more pairs. */
function logStep(step: LookStep): void {
  if (step.kind === "crashed") return;
  const next = step.decision.next;
  if (next.kind !== "more") return;
  if (step.kind === "look") {
    log.info(
      `look ${step.index} of ${step.of} at ${step.decision.benchmark.n} pair(s): not yet decided; ${next.pairs} more`,
    );
    return;
  }
  const more = step.decision.next;
  if (more.kind !== "more") return;
  const arms = more.arms.map((a) => benchmarkName(a)).join(", ");
  log.info(`round at ${more.firstPair - 1} pair(s): ${more.stage} next, ${more.pairs} pair(s) of ${arms}`);
}

/** What decision.json records of a final look: the verdict and, for a round, every candidate's call. */
function decisionOf(r: RunRecord, p: PassPlan, step: LookStep, crashes: readonly CrashFacts[]): {
  readonly verdict: Pick<DecisionRecord, "verdict" | "values" | "deltas" | "reasons" | "paired" | "crash">;
  readonly round?: RoundFacts;
  readonly arm: number;
} {
  if (step.kind === "crashed") {
    const d = step.decision;
    const crash = crashes.find((c) => c.measure === d.crash.measure)!;
    return {
      verdict: { verdict: d.verdict, values: d.values, deltas: d.deltas, reasons: d.reasons, paired: null, crash },
      arm: CANDIDATE_ARM,
    };
  }
  if (step.kind === "look") {
    const d = step.decision;
    const guards = Object.keys(d.guards).length === 0 ? {} : { guards: d.guards };
    return {
      verdict: {
        verdict: d.verdict,
        values: d.values,
        deltas: d.deltas,
        reasons: d.reasons,
        paired: repeatedDesign(r)
          ? {
            seeds: p.seeds,
            n: p.seeds.length,
            outcome: d.outcome,
            benchmark: d.benchmark,
            siblings: d.siblings,
            ...guards,
          }
          : null,
      },
      arm: CANDIDATE_ARM,
    };
  }
  const d = step.decision;
  const candidate = (arm: number) => r.candidates[arm - 1]!;
  const crashOf = (arm: number) => {
    const c = crashes.find((x) => parseMeasureName(x.measure)?.arm === arm);
    return c === undefined ? {} : { crash: c };
  };
  const round: RoundFacts = {
    procedure: d.procedure,
    seeds: p.seeds,
    n: p.seeds.length,
    winner: d.winner && { ...d.winner, ref: candidate(d.winner.arm).ref, sha: candidate(d.winner.arm).sha },
    candidates: d.calls.map((call) => ({
      arm: call.arm,
      ref: candidate(call.arm).ref,
      sha: candidate(call.arm).sha,
      verdict: call.verdict,
      standing: call.standing,
      because: call.because,
      pairs: call.pairs,
      screen: call.screen,
      estimate: call.estimate,
      siblings: call.siblings,
      ...(call.guards === undefined ? {} : { guards: call.guards }),
      reason: call.reason,
      ...(call.verdict === "crashed" ? crashOf(call.arm) : {}),
    })),
  };
  return {
    verdict: { verdict: d.verdict, values: d.values, deltas: d.deltas, reasons: d.reasons, paired: null },
    round,
    arm: d.winner?.arm ?? CANDIDATE_ARM,
  };
}

/**
 * Writes the decision of a final look (or round) and what goes with it: the
 * baseline into the cache when this run measured it, where and when each
 * measure ran, what the cache's baseline was (its age and host), what the
 * jobs used (a TIMEOUT that still delivered is said in the reasons) and the
 * samples' spread; a cancel recorded meanwhile wins, and nothing is written.
 * `arm` is the candidate whose host the cached baseline is compared with.
 */
async function conclude(
  dir: RunDir,
  r: RunRecord,
  deps: PhaseDeps,
  measurer: DispatchedMeasurer,
  cache: CachedBaseline,
  p: PassPlan,
  step: LookStep,
  crashes: readonly CrashFacts[],
): Promise<PhaseOutcome> {
  const c = r.contract;
  const { verdict: d, round, arm } = decisionOf(r, p, step, crashes);
  // the baseline's pairs in hand, in order: a crash decides before its look is in, and the cache holds what was
  const baselines: { seed: number; value: number }[] = [];
  for (const [i, seed] of p.seeds.entries()) {
    const value = d.values[benchmarkName(BASE_ARM, i + 1)];
    if (value === undefined) break;
    baselines.push({ seed, value });
  }
  const measuredBaseline = p.toMeasure.some((m) => {
    const ref = parseMeasureName(m.name);
    return ref !== null && ref.sibling === null && ref.arm === BASE_ARM;
  });
  const provenance = provenanceOf(measurer, p.toMeasure);
  if (measuredBaseline) {
    const origin = provenance[benchmarkName(BASE_ARM)];
    storeBaseline(dir, r, baselines, { measuredAt: origin?.endedAt || null, host: origin?.host || null });
  }
  const candidateHost = provenance[benchmarkName(arm)]?.host ?? "";
  const fromCache = Object.keys(p.cached).length > 0 ? cacheNotes(cache, candidateHost, deps.now()) : [];
  const usage = await measureUsage(
    deps.compute,
    p.toMeasure.map((m) => ({ name: m.name, jobId: measurer.marker(m) })),
    r.createdAt,
  );
  const decision: DecisionRecord = {
    verdict: d.verdict,
    values: d.values,
    deltas: d.deltas,
    // a job that delivered but ended TIMEOUT is said here, not only by `show`
    reasons: [...d.reasons, ...fromCache, ...timeoutWarnings(usage, c.evalMinutes)],
    baseSha: r.baseSha,
    // the commit to merge: a round's winner's (null without one), as every --json gives it
    candidateSha: mergeShaOf(r, round),
    runIdentity: runIdentity(r),
    decidedAt: new Date(deps.now()).toISOString(),
    direction: c.direction,
    minEffect: c.minEffect,
    ...(c.minEffectScale === "relative" ? { minEffectScale: "relative" as const } : {}),
    // a single pair's ratio (a repeated design's is in its estimates)
    ...(step.kind === "look" && d.paired === null ? singlePairRelative(step.decision) : {}),
    ...(d.crash === undefined ? {} : { crash: d.crash }),
    baselineSource: Object.keys(p.cached).length > 0 ? "cached" : "measured",
    paired: d.paired,
    provenance,
    usage,
    samples: measureSamples(dir, r.image, p.toMeasure),
    ...(round === undefined ? {} : { round }),
  };
  // a cancel always wins over a verdict reached after it: asked again under the lock, right before the write
  refuseCancelled(dir, ` (the ${d.verdict} this pass reached after it is not written)`);
  writeDecision(dir, decision);
  await retireWakes(deps.compute, r, dir, deps);
  return { kind: "decided", decision, fresh: true };
}

/** A single pair's ratios (the benchmark's, each sibling's and guard's), as decision.json keeps them; none before them. */
function singlePairRelative(d: LookDecision): { relative?: RelativeFacts } {
  const facts = relativeOfPaired({
    seeds: [],
    n: 1,
    outcome: d.outcome,
    benchmark: d.benchmark,
    siblings: d.siblings,
    guards: d.guards,
  });
  return facts === undefined ? {} : { relative: facts };
}

/** Where and when each measure ran, for those whose eval recorded it. */
function provenanceOf(measurer: DispatchedMeasurer, measures: readonly Measure[]): Record<string, Provenance> {
  const out: Record<string, Provenance> = {};
  for (const m of measures) {
    const p = readProvenance(measurer.evalDir(m));
    if (p !== null) out[m.name] = p;
  }
  return out;
}

/** A calibration (A/A) run: every pair at once, then the noise report instead of a verdict. */
async function calibration(
  dir: RunDir,
  r: RunRecord,
  deps: PhaseDeps,
  measurer: DispatchedMeasurer,
): Promise<PhaseOutcome> {
  const p = runPlan(r).all;
  const measured = await resultsOrPark(dir, r, deps, measurer, p.toMeasure);
  if ("kind" in measured) return measured;
  const report = calibrationOf(r, p.plan, measured.values, p.seeds, deps.now);
  refuseCancelled(dir, " (the calibration this pass reached after it is not written)"); // a cancel wins
  writeCalibration(dir, report);
  await retireWakes(deps.compute, r, dir, deps);
  return { kind: "calibrated", calibration: report, fresh: true };
}

/** The measures' values, or — when some are pending — the run parked behind a wake on them. */
async function resultsOrPark(
  dir: RunDir,
  r: RunRecord,
  deps: PhaseDeps,
  measurer: DispatchedMeasurer,
  measures: readonly Measure[],
): Promise<{ readonly values: Record<string, number> } | PhaseOutcome> {
  try {
    return { values: await measurer.results(measures) };
  } catch (err) {
    if (!(err instanceof MeasurementPending)) throw err;
    return await park(dir, r, deps, err);
  }
}

/**
 * The jobs of the look's candidate measures still out, whose failure should
 * wake the run before the rest of the look ends (fail fast: a crash stops
 * what is left of its look); at most CRASH_WATCH of them, the wake's
 * dependency being one line.
 */
function crashWatch(measures: readonly Measure[], look: LookResults): string[] {
  const out = new Set<string>();
  for (const m of measures) {
    const ref = parseMeasureName(m.name);
    const job = look.jobIds[m.name];
    if (ref === null || ref.arm < CANDIDATE_ARM || job === undefined || Object.hasOwn(look.values, m.name)) continue;
    if (look.failed.some((f) => f.measure === m.name)) continue;
    out.add(job);
  }
  return out.size > CRASH_WATCH ? [] : [...out];
}
/** The most candidate jobs a wake watches for a crash. */
const CRASH_WATCH = 64;

/** Parks the run behind a wake job on the pending jobs. */
async function park(dir: RunDir, r: RunRecord, deps: PhaseDeps, pending: MeasurementPending): Promise<PhaseOutcome> {
  if (r.compute === "local") throw new Error(`The local backend parked unexpectedly: ${pending.message}`);
  try {
    const wake = await submitWake(deps.compute, r, dir, pending, deps);
    return { kind: "parked", pending: pending.jobIds, wake };
  } catch (submitErr) {
    if (!(submitErr instanceof SlurmError)) throw submitErr;
    throw new SlurmError(
      `Cannot submit the wake job (${submitErr.message}). Nothing is lost: the dispatched jobs and the run ` +
        `records are intact; run "outerloop resume ${dir}" once the scheduler answers`,
      { cause: submitErr },
    );
  }
}
