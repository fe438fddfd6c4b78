import type { Compute } from "../compute/compute.ts";
import { SlurmError } from "../compute/errors.ts";
import { pinSha } from "../dispatch/pin.ts";
import { log } from "../log.ts";
import { MeasurementPending } from "../measure/pending.ts";
import { storeBaseline } from "./baseline_source.ts";
import { decide } from "./decide.ts";
import { type DecisionRecord, readDecision, writeDecision } from "./decision_file.ts";
import { acquireRunLock } from "./lock.ts";
import { measurerFor } from "./measurer_for.ts";
import { passPlan } from "./plan_from_record.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunRecord, type RunRecord, writeRunRecord } from "./run_record.ts";
import { retireWakes, submitWake } from "./wake.ts";
import type { WakeRecord } from "./wake_record.ts";

/** Where one pass of the measure-and-decide phase left the run. */
export type PhaseOutcome =
  | { readonly kind: "decided"; readonly decision: DecisionRecord; readonly fresh: boolean }
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
 * one decision.
 */
export async function runPhase(dir: RunDir, deps: PhaseDeps): Promise<PhaseOutcome> {
  const decided = readDecision(dir);
  if (decided) {
    await retireWakes(deps.compute, readRunRecord(dir), dir, deps);
    return { kind: "decided", decision: decided, fresh: false };
  }
  const record = readRunRecord(dir);
  return await underLock(dir, record, deps, async () => {
    // another pass may have decided while we waited for the lock
    const now = readDecision(dir);
    if (now) return { kind: "decided", decision: now, fresh: false };
    return await pass(dir, record, deps);
  });
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
    const decided = readDecision(dir);
    if (decided) return { kind: "decided", decision: decided, fresh: false };
    await pinSha(inForce.repo, inForce.baseSha);
    await pinSha(inForce.repo, inForce.candidateSha);
    return await pass(dir, inForce, deps);
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
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

async function pass(dir: RunDir, r: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  const measurer = measurerFor(dir, r, deps.compute, deps.now);
  const { plan, cachedBaseline: cached, toMeasure } = passPlan(dir, r, true);
  if (cached !== null) log.info(`baseline ${cached} from the cache (${r.contract.name}@${r.baseSha.slice(0, 12)})`);

  let measured: Record<string, number>;
  try {
    measured = await measurer.results(toMeasure);
  } catch (err) {
    if (!(err instanceof MeasurementPending)) throw err;
    if (r.compute === "local") throw new Error(`The local backend parked unexpectedly: ${err.message}`);
    try {
      const wake = await submitWake(deps.compute, r, dir, err, deps);
      return { kind: "parked", pending: err.jobIds, wake };
    } catch (submitErr) {
      if (!(submitErr instanceof SlurmError)) throw submitErr;
      throw new SlurmError(
        `Cannot submit the wake job (${submitErr.message}). Nothing is lost: the dispatched jobs and the run ` +
          `records are intact; run "outerloop resume ${dir}" once the scheduler answers`,
        { cause: submitErr },
      );
    }
  }
  const values: Record<string, number> = {};
  for (const m of plan) values[m.name] = m.name === "baseline" && cached !== null ? cached : measured[m.name]!;
  if (cached === null) storeBaseline(dir, r, values["baseline"]!);

  const decision: DecisionRecord = {
    ...decide(r.contract, values),
    baseSha: r.baseSha,
    candidateSha: r.candidateSha,
    decidedAt: new Date(deps.now()).toISOString(),
    direction: r.contract.direction,
    minEffect: r.contract.minEffect,
    baselineSource: cached === null ? "measured" : "cached",
  };
  writeDecision(dir, decision);
  await retireWakes(deps.compute, r, dir, deps);
  return { kind: "decided", decision, fresh: true };
}
