/**
 * The fields of a job that users give (a job name or run tag, a memory
 * size, an account, partition or QOS name), checked where they enter — a
 * flag of `submit` or `measure`, a run tag drawn from a run dir's name —
 * before anything is submitted or frozen into a run.
 */
import { isMemorySize } from "./job_spec.ts";
import { BadInputError } from "../errors.ts";

/**
 * The longest job name or run tag we accept, in UTF-8 bytes. Slurm stores
 * names up to 1024 bytes but tools and sites truncate far shorter, and a name
 * that squeue cuts cannot be found again by name — the liveness check.
 */
const MAX_JOB_NAME_BYTES = 128;

/**
 * A job name or run tag, checked where it enters: not empty, not an option,
 * free of `|` (squeue's `--parsable2` separator) and control characters
 * (which break line-based listings and terminals), and short enough to be
 * found again by name. Returns it unchanged. `fix`, when given, ends the
 * message: what to do when the value came from somewhere other than a flag.
 */
export function checkJobName(what: string, value: string, fix?: string): string {
  const problem = value === ""
    ? "it is empty"
    : value.startsWith("-")
    ? 'it starts with "-", which reads as an option'
    : value.includes("|")
    ? 'it contains "|", which breaks the scheduler\'s listings'
    // deno-lint-ignore no-control-regex -- control characters are what this refuses
    : /[\u0000-\u001f\u007f]/.test(value)
    ? "it contains a control character"
    : !value.isWellFormed()
    ? "it contains a lone surrogate"
    : new TextEncoder().encode(value).length > MAX_JOB_NAME_BYTES
    ? `it is longer than ${MAX_JOB_NAME_BYTES} bytes`
    : null;
  if (problem !== null) {
    throw new BadInputError(
      `Invalid ${what} ${JSON.stringify(value)}: ${problem}${fix === undefined ? "" : `; ${fix}`}`,
    );
  }
  return value;
}

/** A Slurm memory size (`2G`, `500M`, `1024`): digits and an optional unit. Returns it unchanged. */
export function checkMemory(value: string): string {
  if (!isMemorySize(value)) {
    throw new BadInputError(
      `Invalid --mem ${JSON.stringify(value)}: expected a size such as 2G, 500M or 1024 (megabytes)`,
    );
  }
  return value;
}

/**
 * An account, partition or QOS name as the scheduler knows it: no white
 * space or control characters, which no Slurm name holds and a copied value
 * (`"myacct "`) easily does. `from` names the flag or variable it came from.
 * Checked before the run is frozen: `measure` records these, and a run
 * frozen with a name sbatch refuses cannot be fixed by repeating the command.
 * Returns it unchanged; "" (the scheduler's default) is fine.
 */
export function checkSchedulerName(from: string, value: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what this refuses
  const bad = /[\s\u0000-\u001f\u007f]/.exec(value);
  if (bad !== null) {
    const what = /\s/.test(bad[0]) && bad[0] >= " " ? "white space" : "a control character";
    throw new BadInputError(`Invalid ${from} ${JSON.stringify(value)}: it contains ${what}; give the name alone`);
  }
  return value;
}
