import type { ComputeMode } from "../../compute/mode.ts";
import type { PhaseDeps } from "../../run/phase.ts";
import type { CliDeps } from "./io.ts";

/** The phase's dependencies, from the CLI's: the backend of `mode` on `cluster` (Slurm's `-M`; "" for none). */
export function phaseDeps(deps: CliDeps, mode: ComputeMode, cluster: string, lockWaitMs = 0): PhaseDeps {
  return { compute: deps.compute(mode, cluster), self: deps.self(), now: deps.now, env: deps.env, lockWaitMs };
}
