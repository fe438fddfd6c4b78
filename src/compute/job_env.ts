/**
 * The one rule for what of our environment reaches a job or a scheduler
 * command. Everything outerloop starts on a job's behalf — a local job, and
 * sbatch, squeue, sacct and scancel for submit, eval and wake jobs alike —
 * gets an environment built here, never our whole one: Slurm exports sbatch's
 * environment into the job by default, so whatever sbatch sees, the job's
 * (untrusted) benchmark code sees too.
 */

/** Variables every job gets, when set (the reference's local list). */
const ALLOWED: ReadonlySet<string> = new Set(["PATH", "HOME", "LANG", "TMPDIR", "SLURM_TMPDIR", "USER", "LOGNAME"]);

/**
 * Config surface passed through as a prefix rule: enumerating names is how a
 * mode flag dies silently (a wake job must see the same `OUTERLOOP_*` and
 * `AUTORESEARCH_*` settings as the `measure` that parked).
 */
const PREFIXES = ["AUTORESEARCH_", "OUTERLOOP_"];

/**
 * What Grid Engine clients need to find their cell (`$SGE_ROOT/$SGE_CELL`,
 * and the ports when a site does not list them in /etc/services) — and
 * nothing else of the `SGE_*` a GE job has (`SGE_TASK_ID`, `SGE_O_*`,
 * `SGE_STDOUT_PATH`, …): those describe the job we run inside, not the one
 * being submitted.
 */
const SGE_CLIENT = ["SGE_ROOT", "SGE_CELL", "SGE_QMASTER_PORT", "SGE_EXECD_PORT", "SGE_CLUSTER_NAME"];

/**
 * What Slurm clients need besides the job allowlist: `SLURM_CONF` (how they
 * find the cluster), `TZ` and the locale (sacct reads `-S` in local time, and
 * a wake job's `resume` must read it the same way as the `measure` that
 * parked), and `LD_LIBRARY_PATH` (a Slurm installed as an environment module).
 * munge needs nothing from the environment: the socket comes from slurm.conf.
 */
const SCHEDULER_EXTRA: ReadonlySet<string> = new Set(["SLURM_CONF", "TZ", "LC_ALL", "LD_LIBRARY_PATH", ...SGE_CLIENT]);

/**
 * The id of the scheduler job this process runs inside, on either
 * scheduler: Slurm's `SLURM_JOB_ID`, or GE's `JOB_ID` (GE sets
 * `SGE_TASK_ID` in every job, `undefined` outside an array, which tells its
 * JOB_ID from a stray variable of that common name). Undefined outside a job.
 */
export function ownJobId(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env["SLURM_JOB_ID"]) return env["SLURM_JOB_ID"];
  return env["SGE_TASK_ID"] !== undefined && env["JOB_ID"] ? env["JOB_ID"] : undefined;
}

/** Prefixes of variables a Slurm job exports to its children; sbatch also reads `SBATCH_*` as options. */
const JOB_PREFIXES = ["SLURM_", "SBATCH_", "SRUN_", "SALLOC_"];

/**
 * The words that make a variable's name say it holds a secret value, matched
 * case-insensitively against its last `_`-separated part, optionally plural
 * (`OUTERLOOP_DB_PASSWORD`, `AUTORESEARCH_db_password`, `MY_API_KEYS`). A
 * name ending in `_FILE`, `_PATH` or `_DIR` holds where a secret is, not the
 * secret (`AUTORESEARCH_KEY_FILE`), and passes.
 */
const SECRET_WORDS = new Set([
  "PAT",
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "KEY",
  "APIKEY",
  "CREDENTIAL",
  "CREDENTIALS",
  "CREDS",
]);
/** Glued forms (`GITHUBTOKEN`, `DBPASSWORD`, `MYAPIKEY`) are secrets too: these endings are never innocent. */
const SECRET_ENDINGS = ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "APIKEY", "CREDENTIAL"];

/** Whether a variable's name says it holds a secret value (case-insensitive). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  const words = upper.split("_").filter((w) => w !== "");
  const last = words.at(-1) ?? "";
  const singular = last.endsWith("S") ? last.slice(0, -1) : last;
  if (SECRET_WORDS.has(last) || SECRET_WORDS.has(singular)) return true;
  return SECRET_ENDINGS.some((e) => last.endsWith(e) || singular.endsWith(e));
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The explicit environment of a job: the allowlist plus the config prefixes,
 * minus secret-named variables. The submitting process holds live keys (and
 * an inherited `APPTAINERENV_*` would cross `--cleanenv` into a container),
 * so a job starts from this, never from our whole environment.
 */
export function jobEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || isSecretName(k)) continue;
    if (ALLOWED.has(k) || PREFIXES.some((p) => k.startsWith(p))) out[k] = v;
  }
  return out;
}

/**
 * The environment of a scheduler command (sbatch, squeue, sacct, scancel):
 * the job environment — sbatch exports it into the job — plus what Slurm
 * clients need. Run from inside a Slurm job (a wake), the inherited
 * `SLURM_*` / `SBATCH_*` / `SRUN_*` / `SALLOC_*` variables would leak into the
 * new submission (sbatch reads `SBATCH_*` as options), so they are dropped;
 * `SLURM_CONF` is kept.
 */
export function schedulerEnv(env: Env): Record<string, string> {
  const out = jobEnv(env);
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || isSecretName(k)) continue;
    if (SCHEDULER_EXTRA.has(k)) out[k] = v;
  }
  for (const k of Object.keys(out)) {
    if (k !== "SLURM_CONF" && JOB_PREFIXES.some((p) => k.startsWith(p))) delete out[k];
  }
  return out;
}
