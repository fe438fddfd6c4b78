/** Variables every local job gets, when set. */
const ALLOWED = new Set(["PATH", "HOME", "LANG", "TMPDIR", "SLURM_TMPDIR", "USER", "LOGNAME"]);
/** Config surface passed through as a prefix rule: enumerating names is how a mode flag dies silently. */
const PREFIXES = ["AUTORESEARCH_", "OUTERLOOP_"];
/** Value-bearing secret names (a `*_KEY_FILE` path is fine; a `*_KEY` is not). */
const SECRET_SUFFIXES = ["_PAT", "_TOKEN", "_SECRET", "_PASSWORD", "_KEY"];

/** Whether a variable's name says it holds a secret value. */
export function isSecretName(name: string): boolean {
  return SECRET_SUFFIXES.some((s) => name.endsWith(s));
}

/**
 * The explicit environment of a local job. The submitting process holds live
 * keys (and an inherited `APPTAINERENV_*` would cross `--cleanenv` into the
 * container), so a job starts from this allowlist, never from our whole env.
 */
export function localJobEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (ALLOWED.has(k) || (PREFIXES.some((p) => k.startsWith(p)) && !isSecretName(k))) out[k] = v;
  }
  return out;
}
