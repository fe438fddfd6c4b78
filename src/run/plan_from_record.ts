import type { Measure } from "../measure/measure.ts";
import { planMeasures } from "../measure/plan.ts";
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
      direction: s.direction,
      tolerance: s.tolerance,
    })),
  });
}
