import { dirname, join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import { DispatchedMeasurer } from "./measurer.ts";

/**
 * The cluster coordinates a dispatched measurer needs, read once from flags
 * and environment by the CLI. A static description of WHERE to dispatch; the
 * per-run pieces are bound by `measurer()`.
 */
export interface DispatchSettingsInput {
  readonly compute: Compute;
  /** Local compute has no lanes: jobs run on whatever GPUs this machine has. */
  readonly local: boolean;
  readonly image: string;
  readonly account: string;
  readonly partition: string;
  /** Where GPU jobs go; empty = this deployment cannot place GPU jobs. */
  readonly gpuPartition?: string;
  /** Empty = the same account as CPU jobs. */
  readonly gpuAccount?: string;
  readonly seedCache?: string | null;
}

export class DispatchSettings {
  constructor(readonly s: DispatchSettingsInput) {}

  /**
   * (account, partition) for a job needing `gpus` GPUs. A GPU job with no
   * lane is refused: a queue that can never run is worse than a loud refusal.
   */
  placement(gpus: number): { account: string; partition: string } {
    if (gpus <= 0 || this.s.local) return { account: this.s.account, partition: this.s.partition };
    if (!this.s.gpuPartition) {
      throw new TypeError(
        `Benchmark needs ${gpus} GPU(s) but no GPU lane is configured (set OUTERLOOP_GPU_PARTITION or pass --gpu-partition)`,
      );
    }
    return { account: this.s.gpuAccount || this.s.account, partition: this.s.gpuPartition };
  }

  /**
   * Binds these coordinates to one run. The baseline cache sits beside the
   * run dirs (`<parent of runDir>/baselines`): every run on one base shares
   * its cached baseline measurement.
   */
  measurer(runDir: string, repoRoot: string, evalMinutes: number, runTag: string): DispatchedMeasurer {
    return new DispatchedMeasurer({
      compute: this.s.compute,
      runDir,
      repoRoot,
      image: this.s.image,
      account: this.s.account,
      partition: this.s.partition,
      evalMinutes,
      runTag,
      gpuPartition: this.s.gpuPartition ?? "",
      gpuAccount: this.s.gpuAccount ?? "",
      lanes: !this.s.local,
      seedCache: this.s.seedCache ?? null,
      baselineCache: join(dirname(runDir), "baselines"),
    });
  }
}
