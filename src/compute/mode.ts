// Tested by tests/compute/slurm_parse_test.ts
/** Which backend: the reference's only reader of AUTORESEARCH_COMPUTE. */
export type ComputeMode = "local" | "slurm" | "sge";

/**
 * `AUTORESEARCH_COMPUTE=local` selects the local backend (every job a
 * synchronous subprocess), `sge` Grid Engine; any other value, or none, is
 * Slurm (the reference's rule for everything but `local`).
 */
export function modeFromEnv(env: Readonly<Record<string, string | undefined>>): ComputeMode {
  const v = (env["AUTORESEARCH_COMPUTE"] ?? "").trim().toLowerCase();
  return v === "local" ? "local" : v === "sge" ? "sge" : "slurm";
}
