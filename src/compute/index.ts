/** The compute layer's public surface. */
export { arrayChunks, DEFAULT_MAX_ARRAY_SIZE, splitRef, taskRef } from "./array.ts";
export {
  assertJobId,
  assertJobRef,
  type Compute,
  InvalidJobIdError,
  isJobId,
  isJobRef,
  isTaskId,
  type LiveJob,
  type SubmitRoom,
  type SubmitTarget,
} from "./compute.ts";
export { ComputeError, LocalComputeError, SlurmError, SlurmQueryError, SubmitLimitError } from "./errors.ts";
export { computeFor } from "./from_mode.ts";
export { type JobSpec, toArgv } from "./job_spec.ts";
export { LocalCompute } from "./local.ts";
export { type ComputeMode, modeFromEnv } from "./mode.ts";
export { quoteCommand, quoteWord } from "./quote.ts";
export { SlurmCompute } from "./slurm.ts";
export { GONE, isPending, isTerminal, TERMINAL_STATES } from "./states.ts";
