import { join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import { SlurmError } from "../compute/errors.ts";
import { log } from "../log.ts";
import { MeasurementPending } from "../measure/pending.ts";
import { cachedBaseline, storeBaseline } from "./baseline_source.ts";
import { decide } from "./decide.ts";
import { type DecisionRecord, readDecision, writeDecision } from "./decision_file.ts";
import { acquireRunLock } from "./lock.ts";
import { measurerFor } from "./measurer_for.ts";
import { planFromRecord } from "./plan_from_record.ts";
import { readRunRecord, type RunRecord } from "./run_record.ts";
import { submitWake } from "./wake.ts";
import type { WakeRecord } from "./wake_record.ts";

/** Where one pass of the measure-and-decide phase left the run. */
export type PhaseOutcome =
  | { readonly kind: "decided"; readonly decision: DecisionRecord; readonly fresh: boolean }
  | { readonly kind: "parked"; readonly pending: readonly string[]; readonly wake: WakeRecord };

export interface PhaseDeps {
  readonly compute: Compute;
  /** How the wake job runs this program again. */
  readonly self: readonly string[];
  /** How long to wait for another process's run lock; default 0. */
  readonly lockWaitMs?: number;
}

/**
 * One pass over a run dir: a decided run returns its decision untouched;
 * otherwise, under the run lock, every measure is read, dispatched or found
 * live; a pending set parks the run behind a wake job; a complete set is
 * decided and `decision.json` written. Everything is rebuilt from `run.json`,
 * so any number of passes, from any process, converge on one decision.
 */
export async function runPhase(runDir: string, deps: PhaseDeps): Promise<PhaseOutcome> {
  const decided = readDecision(runDir);
  if (decided) return { kind: "decided", decision: decided, fresh: false };
  const record = readRunRecord(runDir);
  // a local pass measures synchronously and may outlast any age limit; its
  // holder's liveness (same host, pid) is what decides there
  const lock = await acquireRunLock(runDir, {
    waitMs: deps.lockWaitMs ?? 0,
    ...(record.compute === "local" ? { staleMs: Number.POSITIVE_INFINITY } : {}),
  });
  try {
    // another pass may have decided while we waited for the lock
    const now = readDecision(runDir);
    if (now) return { kind: "decided", decision: now, fresh: false };
    return await pass(runDir, record, deps);
  } finally {
    lock.release();
  }
}

async function pass(runDir: string, r: RunRecord, deps: PhaseDeps): Promise<PhaseOutcome> {
  const measurer = measurerFor(runDir, r, deps.compute);
  const cacheDir = measurer.o.baselineCache ?? join(runDir, "..", "baselines");
  const plan = planFromRecord(r);
  const cached = cachedBaseline(runDir, r, cacheDir);
  if (cached !== null) log.info(`baseline ${cached} from the cache (${r.contract.name}@${r.baseSha.slice(0, 12)})`);
  const toMeasure = cached === null ? plan : plan.filter((m) => m.name !== "baseline");

  let measured: Record<string, number>;
  try {
    measured = await measurer.results(toMeasure);
  } catch (err) {
    if (!(err instanceof MeasurementPending)) throw err;
    if (r.compute === "local") throw new Error(`The local backend parked unexpectedly: ${err.message}`);
    try {
      const wake = await submitWake(deps.compute, r, runDir, err, deps.self);
      return { kind: "parked", pending: err.jobIds, wake };
    } catch (submitErr) {
      if (!(submitErr instanceof SlurmError)) throw submitErr;
      throw new SlurmError(
        `Cannot submit the wake job (${submitErr.message}). Nothing is lost: the dispatched jobs and the run ` +
          `records are intact; run "outerloop resume ${runDir}" once the scheduler answers`,
        { cause: submitErr },
      );
    }
  }
  const values: Record<string, number> = {};
  for (const m of plan) values[m.name] = m.name === "baseline" && cached !== null ? cached : measured[m.name]!;
  if (cached === null) storeBaseline(cacheDir, r, values["baseline"]!);

  const decision: DecisionRecord = {
    ...decide(r.contract, values),
    baseSha: r.baseSha,
    candidateSha: r.candidateSha,
    decidedAt: new Date().toISOString(),
    direction: r.contract.direction,
    minEffect: r.contract.minEffect,
    baselineSource: cached === null ? "measured" : "cached",
  };
  writeDecision(runDir, decision);
  return { kind: "decided", decision, fresh: true };
}
