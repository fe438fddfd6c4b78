/**
 * The testbed's Slurm version, for the few live assertions that differ
 * between the releases the project supports (22.05 and 24.11): each such
 * test names what changed, so a difference is pinned, not papered over.
 */
import { slurmCommand } from "./slurm_live.ts";

/** [major, minor, patch] of the Slurm clients on PATH (`scontrol --version`: "slurm 24.11.5"). */
export async function slurmVersion(): Promise<readonly [number, number, number]> {
  const out = (await slurmCommand(["scontrol", "--version"])).trim();
  const m = /^slurm(?:-wlm)? ([0-9]+)\.([0-9]+)\.([0-9]+)/.exec(out);
  if (m === null) throw new Error(`Cannot read the Slurm version from ${JSON.stringify(out)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether the testbed's Slurm is at least `major.minor.patch`. */
export async function slurmAtLeast(major: number, minor: number, patch = 0): Promise<boolean> {
  const [a, b, c] = await slurmVersion();
  return a !== major ? a > major : b !== minor ? b > minor : c >= patch;
}
