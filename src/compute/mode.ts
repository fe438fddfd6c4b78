/** Which backend: the reference's only reader of AUTORESEARCH_COMPUTE. */
export type ComputeMode = "local" | "slurm";

/**
 * `AUTORESEARCH_COMPUTE=local` selects the local backend (every job a
 * synchronous subprocess); any other value, or none, is Slurm.
 */
export function modeFromEnv(env: Readonly<Record<string, string | undefined>>): ComputeMode {
  return (env["AUTORESEARCH_COMPUTE"] ?? "").trim().toLowerCase() === "local" ? "local" : "slurm";
}
