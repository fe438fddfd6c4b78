import type { Compute } from "./compute.ts";
import { LocalCompute } from "./local.ts";
import type { ComputeMode } from "./mode.ts";
import { SlurmCompute } from "./slurm.ts";

/** The backend for a mode. */
export function computeFor(mode: ComputeMode): Compute {
  return mode === "local" ? new LocalCompute() : new SlurmCompute();
}
