import { checkCluster } from "../../compute/cluster.ts";
import { type ComputeMode, modeFromEnv } from "../../compute/mode.ts";
import { BadInputError } from "../../errors.ts";
import type { Args } from "../flags.ts";

/** `--compute` and `--json`: every scheduler-facing command takes them. */
export const computeFlags: Args = {
  compute: {
    type: "string",
    valueHint: "local|slurm|sge",
    description: "The backend: local subprocesses, Slurm or Grid Engine",
    defaultText: "AUTORESEARCH_COMPUTE when local or sge, else slurm",
  },
  clusters: {
    type: "string",
    valueHint: "NAME",
    description: "Slurm: the one cluster every scheduler command names (sbatch -M); a run keeps it in run.json",
    env: "SLURM_CLUSTERS",
  },
  json: { type: "boolean", description: "Machine-readable output on stdout" },
};

/** `--json` alone. */
export const jsonFlag: Args = { json: computeFlags["json"]! };

/** The one positional of the commands that act on a run dir. */
export const runDirPositional: Args = {
  RUN_DIR: { type: "positional", description: "The run directory (made by `outerloop measure`)" },
};

/** The backend mode from `--compute`, else from AUTORESEARCH_COMPUTE. */
export function resolveMode(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): ComputeMode {
  if (flag === undefined) return modeFromEnv(env);
  if (flag === "local" || flag === "slurm" || flag === "sge") return flag;
  throw new BadInputError(`Invalid --compute ${JSON.stringify(flag)}: expected "local", "slurm" or "sge"`);
}

/**
 * The Slurm cluster from `--clusters`, else SLURM_CLUSTERS (Slurm's own
 * variable); "" for none. One cluster only (compute/cluster.ts). The flag is
 * refused on another backend; the variable, which a Slurm user may keep set,
 * means nothing there.
 */
export function resolveCluster(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  mode: ComputeMode,
): string {
  if (mode !== "slurm") {
    if (flag !== undefined) {
      throw new BadInputError(`--clusters names a Slurm cluster: it cannot be used with --compute ${mode}`);
    }
    return "";
  }
  return flag === undefined
    ? checkCluster("SLURM_CLUSTERS", env["SLURM_CLUSTERS"] ?? "")
    : checkCluster("--clusters", nonEmpty("clusters", flag)!);
}

/** The backend and, on Slurm, the cluster of a command that acts on jobs (`--compute`, `--clusters`). */
export function modeAndCluster(
  computeFlag: string | undefined,
  clustersFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { readonly mode: ComputeMode; readonly cluster: string } {
  const mode = resolveMode(computeFlag, env);
  return { mode, cluster: resolveCluster(clustersFlag, env, mode) };
}

/** A whole number flag within [min, max], or `fallback` when absent. */
export function wholeNumber(
  name: string,
  value: string | undefined,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new BadInputError(`Invalid --${name} ${JSON.stringify(value)}: expected a whole number ${range}`);
  }
  return Number(value);
}

/** A string flag that must not be empty when given; undefined when absent. */
export function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") {
    throw new BadInputError(`Invalid --${name} "": give a value or leave the flag out`);
  }
  return value;
}
