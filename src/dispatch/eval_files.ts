// Tested by tests/dispatch/eval_script_test.ts
import { join } from "node:path";

/**
 * One measure's eval dir, `<run dir>/eval-<slot>/`: the files its job script
 * writes and its readers read. The job script (`eval_script.ts`) writes all but
 * `submitted`, which the measurer writes when the scheduler accepts the job.
 * The names are the reference's; a run dir written by either implementation
 * reads in the other.
 */
export const EVAL_FILES = {
  /** The job script itself. */
  script: "job.sh",
  /** The scheduler's job id, written by the measurer at dispatch: "this measure was submitted". */
  submitted: "submitted",
  /** The job's start: an ISO time and the node. */
  started: "started",
  /** The command's stdout and stderr, as written (stdout reaches it through a tee, so nearly in order). */
  output: "output.log",
  /** The command's stdout alone: its last non-empty line is a result channel. */
  stdout: "stdout.log",
  /** What the command wrote to `$OUTERLOOP_RESULT`. */
  result: "result.json",
  /** Where and when the command ran: `key=value` lines (dispatch/provenance.ts); absent in the reference's dirs. */
  provenance: "provenance",
  /** Written last and atomically: its presence means the job is over. */
  exitCode: "exit-code",
  /** The scheduler's own log of the job script (setup messages). */
  slurmOut: "slurm.out",
} as const;

/**
 * The eval dir's name, `eval-<slot>` — the one place it is built. The slot
 * must be one path component: a slot with `/` or `..` would put a job's
 * records outside the run dir.
 */
export function evalDirName(slot: string): string {
  if (slot === "" || slot.includes("/") || slot.includes("\0") || slot === "." || slot === "..") {
    throw new TypeError(`Invalid eval slot ${JSON.stringify(slot)}: expected one path component`);
  }
  return `eval-${slot}`;
}

/** The eval dir of `slot` inside the run dir `root`. */
export function evalDirPath(root: string, slot: string): string {
  return join(root, evalDirName(slot));
}

/**
 * The dir of a pair unit's job (`pair<i>-<hex>`, measure/identity.ts
 * `unitSlot`), `<run dir>/<slot>/`: its job script, its marker and the
 * scheduler's log; the measures it runs keep their own eval dirs. A unit of
 * one measure has no dir of its own: its eval dir is it.
 */
export const UNIT_FILES = {
  /** The pair job's script: runs its measures' own job scripts. */
  script: "job.sh",
  /** The scheduler's job id, written when the scheduler accepts the job. */
  submitted: "submitted",
  /** The scheduler's log of the pair job. */
  slurmOut: "slurm.out",
} as const;

/** A unit's dir inside the run dir: the eval dir for a unit of one measure (`eval-<slot>`), else `<slot>` (`pair…`). */
export function unitDirPath(root: string, unitSlot: string, single: boolean): string {
  if (single) return evalDirPath(root, unitSlot);
  if (!/^pair[0-9]+-[0-9a-f]{40}$/.test(unitSlot)) {
    throw new TypeError(`Invalid pair unit slot ${JSON.stringify(unitSlot)}`);
  }
  return join(root, unitSlot);
}
