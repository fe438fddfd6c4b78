/** The compute layer's public surface. */
export { assertJobId, type Compute, InvalidJobIdError, isJobId, type LiveJob } from "./compute.ts";
export { ComputeError, LocalComputeError, SlurmError, SlurmQueryError } from "./errors.ts";
export { computeFor } from "./from_mode.ts";
export { type JobSpec, toArgv } from "./job_spec.ts";
export { LocalCompute } from "./local.ts";
export { type ComputeMode, modeFromEnv } from "./mode.ts";
export { quoteCommand, quoteWord } from "./quote.ts";
export { SlurmCompute } from "./slurm.ts";
export { GONE, isPending, isTerminal, TERMINAL_STATES } from "./states.ts";
