import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalReading } from "../dispatch/read_result.ts";
import { slot } from "../measure/identity.ts";
import type { Measure } from "../measure/measure.ts";
import type { SampleSpread } from "../stats/samples.ts";

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
