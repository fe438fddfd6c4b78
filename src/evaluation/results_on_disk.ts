import { EvalError } from "../dispatch/eval_error.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES, evalDirPath } from "../dispatch/eval_files.ts";
import { type Provenance, readProvenance } from "../dispatch/provenance.ts";
import { readEvalReading } from "../dispatch/read_result.ts";
import { EvalDirState } from "../measure/eval_dir_state.ts";
import { slot } from "../measure/identity.ts";
import { isSignalExit } from "../measure/signal_exit.ts";
import type { Measure } from "../measure/measure.ts";
import { guardValues, type RunPlan } from "../plan/run_plan.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { SampleSpread } from "../stats/samples.ts";

/**
 * What the run's evals left on disk, every measure the design may run read
 * once: the value of each with a readable result, the spread of its samples
 * when its metric was an array, where and when it ran, and — for an eval
 * that finished without a usable result — why, in the reader's words (the
 * output's tail included). A measure with no result yet is in none of them.
 * The baseline the cache gives is a value like any other.
 */
export interface ResultsOnDisk {
  /** Value by measure name (`baseline`, `candidate-2#3`, `sib-x-base`), the cache's included. */
  readonly values: Readonly<Record<string, number>>;
  /** The samples' spread of the measures whose metric was an array. */
  readonly samples: Readonly<Record<string, SampleSpread>>;
  /** Where and when each measure with a result ran, when its eval recorded it. */
  readonly provenance: Readonly<Record<string, Provenance>>;
  /** Why a finished eval's result cannot be read, by measure name. */
  readonly unreadable: Readonly<Record<string, string>>;
  /**
   * The unreadable ones a signal stopped (exit 143, 137): what they come to
   * is the scheduler's to say (measure/read_look.ts), not their result's.
   */
  readonly signalled: ReadonlySet<string>;
  /** The measures of the design, in plan order (the ceiling plan: every one it may ever run). */
  readonly measures: readonly Measure[];
  /**
   * The job each finished eval's `submitted` marker names, by measure name (a
   * finished eval with no marker is left out); read on first use, since only
   * `show` lists jobs.
   */
  readonly jobIds: Readonly<Record<string, string>>;
}

/** Reads every eval result of `plan`'s design from `dir`. */
export function resultsOnDisk(dir: RunDir, plan: RunPlan): ResultsOnDisk {
  const all = plan.all;
  const values: Record<string, number> = { ...all.cached };
  const samples: Record<string, SampleSpread> = {};
  const provenance: Record<string, Provenance> = {};
  const unreadable: Record<string, string> = {};
  const signalled = new Set<string>();
  const finished: [string, string][] = [];
  const image = plan.record.image;
  for (const m of all.toMeasure) {
    const s = slot(image, m);
    const evalDir = evalDirPath(dir.path, s);
    if (!existsSync(join(evalDir, EVAL_FILES.exitCode))) continue; // not finished: no result, no failure
    finished.push([m.name, evalDir]);
    try {
      const reading = readEvalReading(dir.path, s, m.metric, m.summary);
      values[m.name] = reading.value;
      Object.assign(values, guardValues(plan.record.contract, m.name, reading.metrics));
      if (reading.samples !== null) samples[m.name] = reading.samples;
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      unreadable[m.name] = err.message;
      if (isSignalExit(new EvalDirState(evalDir).exitCode)) signalled.add(m.name);
      continue;
    }
    const where = readProvenance(evalDir);
    if (where !== null) provenance[m.name] = where;
  }
  let jobIds: Record<string, string> | undefined;
  return {
    values,
    samples,
    provenance,
    unreadable,
    signalled,
    measures: all.plan,
    get jobIds() {
      return jobIds ??= Object.fromEntries(
        finished.flatMap(([name, evalDir]) => {
          const id = new EvalDirState(evalDir).marker;
          return id === "" ? [] : [[name, id]];
        }),
      );
    },
  };
}

/**
 * The samples' spread of `measures` whose benchmark reported its metric as
 * an array, by measure name: what a deciding pass keeps in decision.json as
 * `samples`. A measure that reported a plain number, or has no result, is
 * left out.
 */
export function measureSamples(
  dir: RunDir,
  image: string,
  measures: readonly Measure[],
): Record<string, SampleSpread> {
  const out: Record<string, SampleSpread> = {};
  for (const m of measures) {
    try {
      const { samples } = readEvalReading(dir.path, slot(image, m), m.metric, m.summary);
      if (samples !== null) out[m.name] = samples;
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
    }
  }
  return out;
}
