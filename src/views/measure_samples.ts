import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalReading } from "../dispatch/read_result.ts";
import { slot } from "../measure/identity.ts";
import type { Measure } from "../measure/measure.ts";
import type { SampleSpread } from "../stats/samples.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { runPlan } from "../plan/run_plan.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";

/**
 * The spread of the samples behind each measure's value — how many, the
 * smallest, the median and the largest — for the measures whose benchmark
 * reported its metric as an array, by measure name (`baseline`,
 * `candidate#3`, `sib-x-base`). What `decision.json` keeps as `samples`, and
 * what `show` and the reports can ask of a run still measuring. A measure
 * that reported a plain number, has no result yet or a bad one is left out
 * (the value, or its failure, is reported where values are).
 */
export function measureSamples(
  runDir: string,
  image: string,
  measures: readonly Measure[],
): Record<string, SampleSpread> {
  const out: Record<string, SampleSpread> = {};
  for (const m of measures) {
    try {
      const { samples } = readEvalReading(runDir, slot(image, m), m.metric, m.summary);
      if (samples !== null) out[m.name] = samples;
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
    }
  }
  return out;
}

/**
 * A run's samples for `show` and the reports: a decided run's are what
 * `decision.json` keeps (`samples`; none when it has none), an open, failed
 * or cancelled run's what its evals' results give so far, for every measure
 * the design may run.
 */
export function runSamples(dir: RunDir, r: RunRecord, decision: DecisionRecord | null): Record<string, SampleSpread> {
  if (decision !== null) return { ...(decision.samples ?? {}) };
  return measureSamples(dir.path, r.image, runPlan(r, cachedBaseline(dir, r, false)).all.toMeasure);
}
