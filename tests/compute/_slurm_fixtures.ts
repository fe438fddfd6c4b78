import { readFileSync } from "node:fs";

/**
 * Slurm 22.05 output recorded on the testbed (tes../fixtures/slurm_arrays/,
 * its README says which command printed each file).
 */
export function slurmFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/slurm_arrays/${name}`, import.meta.url), "utf8");
}

/** A recorded squeue listing with its real field separator (written `|` in the file) put back. */
export function squeueFixture(name: string): string {
  return slurmFixture(name).replaceAll("|", "\x1f");
}
