import { type Compute, computeFor } from "../compute/index.ts";
import { type ComputeMode, modeFromEnv } from "../compute/mode.ts";
import { UsageError } from "./errors.ts";

/** Flags every scheduler-facing command takes. */
export const computeArgs = {
  compute: {
    type: "string",
    description: "Backend: local (subprocesses) or slurm. Default: local when AUTORESEARCH_COMPUTE=local, else slurm",
    valueHint: "local|slurm",
  },
  json: { type: "boolean", description: "Machine-readable output on stdout" },
} as const;

/** The arguments of the commands that act on one run dir. */
export const runDirArgs = {
  runDir: { type: "positional", description: "The run directory", required: true },
  json: { type: "boolean", description: "Machine-readable output on stdout" },
} as const;

/** The backend mode from `--compute`, else from AUTORESEARCH_COMPUTE. */
export function resolveMode(flag: unknown, env = process.env): ComputeMode {
  if (flag === undefined || flag === "") return modeFromEnv(env);
  if (flag === "local" || flag === "slurm") return flag;
  throw new UsageError(`Invalid --compute ${JSON.stringify(flag)}: expected "local" or "slurm"`);
}

/** The backend a command runs against. */
export function resolveCompute(flag: unknown): Compute {
  return computeFor(resolveMode(flag));
}

/** A whole number flag ≥ `min`, or the default when absent. */
export function intFlag(name: string, value: unknown, fallback: number, min = 0): number {
  if (value === undefined || value === "") return fallback;
  const text = String(value);
  if (!/^[0-9]+$/.test(text) || Number(text) < min) {
    throw new UsageError(`Invalid --${name} ${JSON.stringify(text)}: expected a whole number ≥ ${min}`);
  }
  return Number(text);
}

/** Prints a line to stdout. */
export function out(line: string): void {
  process.stdout.write(line + "\n");
}
