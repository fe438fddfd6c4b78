// Tested by tests/measure/measurer_test.ts
import { BadInputError } from "../errors.ts";

/** Where a run's jobs may go: the CPU lane, and the GPU lane for measures with GPUs. */
export interface Lanes {
  readonly account: string;
  /** Empty lets Slurm pick its default partition. */
  readonly partition: string;
  /** Where GPU jobs go; empty = this deployment cannot place GPU jobs. */
  readonly gpuPartition: string;
  /** Empty = the same account as CPU jobs. */
  readonly gpuAccount: string;
  /**
   * False for a backend without lanes (local): every job runs where we are,
   * on whatever GPUs this machine has.
   */
  readonly scheduled: boolean;
}

/** A measure needs GPUs and no GPU lane is configured: the user's set-up to fix (exit 2). */
export class NoGpuLaneError extends BadInputError {
  override name = "NoGpuLaneError";
}

/**
 * (account, partition) for a job of `what` needing `gpus` GPUs. A GPU job
 * with no lane is refused — a queue that can never run is worse than a loud
 * refusal. `measure` asks this for every measure before it writes anything,
 * so a run dir is never created that could not be dispatched.
 */
export function placement(lanes: Lanes, gpus: number, what: string): { account: string; partition: string } {
  if (gpus <= 0 || !lanes.scheduled) return { account: lanes.account, partition: lanes.partition };
  if (!lanes.gpuPartition) {
    throw new NoGpuLaneError(
      `${what} needs ${gpus} GPU(s) but no GPU lane is configured: ` +
        "pass --gpu-partition (or set OUTERLOOP_GPU_PARTITION)",
    );
  }
  return { account: lanes.gpuAccount || lanes.account, partition: lanes.gpuPartition };
}
