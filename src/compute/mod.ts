/**
 * The compute layer: the `Compute` interface every caller depends on — submit,
 * status, one listing of live jobs, batched states, cancel, resource use —
 * with its two backends, Slurm (`slurm.ts`, over sbatch/squeue/sacct/scancel)
 * and local subprocesses (`local.ts`); the `JobSpec` and its sbatch argv;
 * job states; the fields users give a job, checked where they enter
 * (`job_fields.ts`); what a job's environment may hold (`job_env.ts`); which
 * scheduler failures are worth another try and how (`transient.ts`,
 * `retry.ts`). The rule everything rests on: a failed query is "unknown",
 * never "gone".
 *
 * @module
 */
export { assertJobId, type Compute, InvalidJobIdError, isJobId, type LiveJob } from "./compute.ts";
export { ComputeError, LocalComputeError, SlurmError, SlurmQueryError } from "./errors.ts";
export { computeFor } from "./from_mode.ts";
export { checkJobName, checkMemory, checkSchedulerName } from "./job_fields.ts";
export { type JobSpec, toArgv } from "./job_spec.ts";
export { LocalCompute } from "./local.ts";
export { type ComputeMode, modeFromEnv } from "./mode.ts";
export { quoteCommand, quoteWord } from "./quote.ts";
export { SlurmCompute } from "./slurm.ts";
export { GONE, isPending, isTerminal, TERMINAL_STATES } from "./states.ts";
