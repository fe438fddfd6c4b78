/** Prefixes of variables a Slurm job exports to its children. */
const JOB_PREFIXES = ["SLURM_", "SBATCH_", "SRUN_", "SALLOC_"];
/** Kept although prefixed: it is how clients find the cluster. */
const KEEP = new Set(["SLURM_CONF"]);

/**
 * The environment for a scheduler command. Run from inside a Slurm job (the
 * wake), the inherited `SLURM_*` / `SBATCH_*` / `SRUN_*` variables would leak
 * into the new submission — sbatch reads `SBATCH_*` as options and the job
 * inherits the rest — so they are dropped; `SLURM_CONF` is kept.
 */
export function schedulerEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (!KEEP.has(k) && JOB_PREFIXES.some((p) => k.startsWith(p))) continue;
    out[k] = v;
  }
  return out;
}
