// Tested by tests/dispatch/eval_script_test.ts
import { dirname, join } from "node:path";
import type { JobSpec } from "../compute/job_spec.ts";
import { EVAL_FILES } from "./eval_files.ts";

/** The shortest walltime an eval gets: Slurm's unit is a whole minute. */
const MIN_EVAL_MINUTES = 1;
/**
 * The longest: seven days. A contract hint past it is a typo, and a job that
 * asks for more than the partition allows is refused or left pending forever.
 */
export const MAX_EVAL_MINUTES = 7 * 24 * 60;

/** Where and how long one eval job runs. */
export interface EvalJobPlacement {
  readonly jobName: string;
  readonly account: string;
  /** Empty lets Slurm pick its default partition. */
  readonly partition: string;
  /** The contract's hint; clamped to [MIN_EVAL_MINUTES, MAX_EVAL_MINUTES], fractions rounded up. */
  readonly evalMinutes: number;
  /** The contract's `eval_mem`: a Slurm memory size. */
  readonly mem: string;
  /** The contract's `eval_cpus`. */
  readonly cpus: number;
  readonly gpus: number;
  /** The scheduler's log of the job script; default `slurm.out` beside the script. */
  readonly output?: string | undefined;
}

/**
 * The JobSpec that runs an eval job script: the script itself (never
 * `--wrap`, since the script embeds user text), its log beside it, the
 * walltime clamped (it covers the checkout as well as the command), the
 * memory and CPUs the contract asks for, and the GPUs per node the measure
 * needs. Slurm reads `%` in `--output` as a pattern: a run dir holding one
 * gets a differently named log (diagnostics only; the job's records are its
 * own files).
 */
export function evalJobSpec(script: string, p: EvalJobPlacement): JobSpec {
  if (!Number.isInteger(p.gpus) || p.gpus < 0) {
    throw new RangeError(`Invalid GPU count ${JSON.stringify(p.gpus)}: expected a whole number >= 0`);
  }
  return {
    jobName: p.jobName,
    account: p.account,
    partition: p.partition,
    timeMinutes: clampMinutes(p.evalMinutes),
    script,
    mem: p.mem,
    cpus: p.cpus,
    gpus: p.gpus,
    output: p.output ?? join(dirname(script), EVAL_FILES.slurmOut),
  };
}

/** Whole minutes within [MIN_EVAL_MINUTES, MAX_EVAL_MINUTES]; a non-number is refused. */
export function clampMinutes(minutes: number): number {
  if (typeof minutes !== "number" || Number.isNaN(minutes)) {
    throw new RangeError(`Invalid eval minutes ${JSON.stringify(minutes)}: expected a number`);
  }
  return Math.min(MAX_EVAL_MINUTES, Math.max(MIN_EVAL_MINUTES, Math.ceil(minutes)));
}
