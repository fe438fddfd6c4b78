import type { Measure } from "../measure/measure.ts";
import { planMeasures } from "../measure/plan.ts";
import { cachedBaseline } from "./baseline_source.ts";
import type { RunDir } from "./run_dir.ts";
import type { RunRecord } from "./run_record.ts";

/**
 * The run's measures, rebuilt from its record alone: the same record gives
 * byte-identical measures (and so slots and job names) before and after a
 * park. Every sibling gets the one drawn suite seed through its own variable.
 */
export function planFromRecord(r: RunRecord): Measure[] {
  const c = r.contract;
  return planMeasures({
    command: c.command,
    metric: c.metric,
    baseSha: r.baseSha,
    candidateSha: r.candidateSha,
    seedEnv: c.seedEnv,
    seed: r.seed,
    gpus: c.gpus,
    siblings: c.siblings.map((s) => ({
      name: s.name,
      command: s.command,
      metric: s.metric,
      seedEnv: s.seedEnv,
      seed: r.seed,
      gpus: s.gpus,
    })),
  });
}

/** What one pass over a run works on. */
export interface PassPlan {
  /** Every measure of the run, in plan order. */
  readonly plan: readonly Measure[];
  /** The baseline value the shared cache gives this run, or null when it measures its own. */
  readonly cachedBaseline: number | null;
  /** The measures this run measures itself: the plan, less a cached baseline. */
  readonly toMeasure: readonly Measure[];
}

/**
 * The pass's plan: the whole plan, and which of it comes from the baseline
 * cache. `resume` takes the cache entry (`take`); `show` only looks, and
 * sees what the next pass would take.
 */
export function passPlan(dir: RunDir, r: RunRecord, take: boolean): PassPlan {
  const plan = planFromRecord(r);
  const cached = cachedBaseline(dir, r, take);
  return {
    plan,
    cachedBaseline: cached,
    toMeasure: cached === null ? plan : plan.filter((m) => m.name !== "baseline"),
  };
}
