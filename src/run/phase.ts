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
import { decideLook } from "../verdict/decide.ts";
import { type DecisionRecord, type RoundFacts, writeDecision } from "../rundir/decision_file.ts";
import { acquireRunLock } from "./lock.ts";
import { measurerFor } from "../plan/measurer_for.ts";
import { pairedValues, type PassPlan, RoundSteps, runPlan } from "../plan/run_plan.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { readRunRecord, runIdentity, type RunRecord, writeRunRecord } from "../rundir/run_record.ts";
import { retireWakes, submitWake } from "./wake.ts";
import { calibrationOf } from "../verdict/calibration.ts";
import { type FinishedOutcome, finishedOutcome } from "../views/outcome.ts";
import { writeCalibration } from "../rundir/calibration_file.ts";
import type { DispatchedMeasurer } from "../measure/measurer.ts";
import type { Measure } from "../measure/measure.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { type Provenance, readProvenance } from "../dispatch/provenance.ts";
import { cancelWins, isCancelled, refuseCancelled } from "../rundir/cancel_file.ts";
import { sayOnStop } from "../runtime/live_groups.ts";
import { endFailedRun } from "./failed_run.ts";
import { measureUsage, timeoutWarnings } from "../plan/run_usage.ts";
import type { WakeRecord } from "../rundir/wake_record.ts";
import { measureSamples } from "../views/measure_samples.ts";

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
 * `RunCancelledError` (exit 3) and nothing is dispatched.
 */
export async function runPhase(dir: RunDir, deps: PhaseDeps): Promise<PhaseOutcome> {
  const record = readRunRecord(dir);
  const done = finishedOutcome(dir, record);
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
      const now = finishedOutcome(dir, record);
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
 * one), pins both shas in the repo, then makes the first pass.
 */
export async function startRun(dir: RunDir, record: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  return await underLock(dir, record, deps, async () => {
    const inForce = writeRunRecord(dir, record);
    const done = finishedOutcome(dir, inForce);
    if (done) return done;
    refuseCancelled(dir);
    return await cancelWins(dir, async () => {
      await pinSha(inForce.repo, inForce.baseSha);
      for (const c of inForce.candidates) await pinSha(inForce.repo, c.sha);
      return await passOrFail(dir, inForce, deps);
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
export function interruptedLine(dir: RunDir, r: RunRecord, sig: string): string {
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
 * The pass proper: the looks of the contract's design in order (a single
 * pair: one look). A look's pairs are read, dispatched or found live; a
 * pending set parks the run; a complete set is judged (`decideLook`), and a
 * look that calls for more pairs goes straight on to the next look's batch.
 * Looks are re-judged from the results on disk at every pass, so the batch a
 * pass dispatches is a pure function of the run dir, as the plan is.
 */
async function pass(dir: RunDir, r: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  const c = r.contract;
  const measurer = measurerFor(dir, r, deps.compute, deps.now);
  const cache = cachedBaseline(dir, r, true);
  if (cache.kind !== "none") {
    const what = cache.kind === "value" ? String(cache.value) : `${cache.pairs.length} pair(s)`;
    log.info(`baseline ${what} from the cache (${c.name}@${r.baseSha.slice(0, 12)})`);
  }
  if (r.kind === "calibrate") return await calibration(dir, r, deps, measurer);
  if (r.candidates.length > 1) return await roundPass(dir, r, deps, measurer, cache);
  const plan = runPlan(r, cache);
  const design = plan.design;
  for (const look of design.looks) {
    const p = plan.look(look.n);
    const measured = await resultsOrPark(dir, r, deps, measurer, p.toMeasure);
    if ("kind" in measured) return measured;
    const values = { ...p.cached, ...measured.values };
    const d = decideLook(c, pairedValues(p.plan, values));
    if (d.next.kind === "more") {
      log.info(
        `look ${look.index} of ${design.looks.length} at ${look.n} pair(s): not yet decided; ${d.next.pairs} more`,
      );
      continue;
    }
    return await conclude(dir, r, deps, measurer, cache, p, {
      verdict: d.verdict,
      values: d.values,
      deltas: d.deltas,
      reasons: d.reasons,
      paired: repeatedDesign(r)
        ? { seeds: p.seeds, n: look.n, outcome: d.outcome, benchmark: d.benchmark, siblings: d.siblings }
        : null,
    });
  }
  throw new Error(`The design's last look (${design.looks.length}) asked for more pairs`);
}

/**
 * A round of K ≥ 2 candidates (verdict/round.ts): batch after batch as the
 * round's decision asks — the screen's pairs of every candidate, then the
 * leader's confirmation on fresh pairs — re-judged from the results on disk
 * at every pass, as a single candidate's looks are, until it is final.
 */
async function roundPass(
  dir: RunDir,
  r: RunRecord,
  deps: PhaseDeps,
  measurer: DispatchedMeasurer,
  cache: CachedBaseline,
): Promise<PhaseOutcome> {
  const steps = new RoundSteps(r, cache);
  for (;;) {
    const p = steps.plan;
    const measured = await resultsOrPark(dir, r, deps, measurer, p.toMeasure);
    if ("kind" in measured) return measured;
    const d = steps.advance({ ...p.cached, ...measured.values });
    if (d.next.kind === "more") {
      const arms = d.next.arms.map((a) => benchmarkName(a)).join(", ");
      log.info(`round at ${p.seeds.length} pair(s): ${d.next.stage} next, ${d.next.pairs} pair(s) of ${arms}`);
      continue;
    }
    const facts: RoundFacts = {
      procedure: d.procedure,
      seeds: p.seeds,
      n: p.seeds.length,
      winner: d.winner && {
        ...d.winner,
        ref: r.candidates[d.winner.arm - 1]!.ref,
        sha: r.candidates[d.winner.arm - 1]!.sha,
      },
      candidates: d.calls.map((call) => ({
        arm: call.arm,
        ref: r.candidates[call.arm - 1]!.ref,
        sha: r.candidates[call.arm - 1]!.sha,
        verdict: call.verdict,
        standing: call.standing,
        because: call.because,
        pairs: call.pairs,
        screen: call.screen,
        estimate: call.estimate,
        siblings: call.siblings,
        reason: call.reason,
      })),
    };
    const verdict = { verdict: d.verdict, values: d.values, deltas: d.deltas, reasons: d.reasons, paired: null };
    return await conclude(dir, r, deps, measurer, cache, p, verdict, facts, d.winner?.arm ?? CANDIDATE_ARM);
  }
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
  d: Pick<DecisionRecord, "verdict" | "values" | "deltas" | "reasons" | "paired">,
  round?: RoundFacts,
  arm: number = CANDIDATE_ARM,
): Promise<PhaseOutcome> {
  const c = r.contract;
  const baselines = p.seeds.map((seed, i) => ({ seed, value: d.values[benchmarkName(BASE_ARM, i + 1)]! }));
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
    candidateSha: r.candidateSha,
    runIdentity: runIdentity(r),
    decidedAt: new Date(deps.now()).toISOString(),
    direction: c.direction,
    minEffect: c.minEffect,
    baselineSource: Object.keys(p.cached).length > 0 ? "cached" : "measured",
    paired: d.paired,
    provenance,
    usage,
    samples: measureSamples(dir.path, r.image, p.toMeasure),
    ...(round === undefined ? {} : { round }),
  };
  // a cancel always wins over a verdict reached after it: asked again under the lock, right before the write
  refuseCancelled(dir, ` (the ${d.verdict} this pass reached after it is not written)`);
  writeDecision(dir, decision);
  await retireWakes(deps.compute, r, dir, deps);
  return { kind: "decided", decision, fresh: true };
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
