/**
 * A JobSpec as a `qsub` argv (Son of Grid Engine 8.1.9), and the job
 * wrapper every GE job runs. What maps to what:
 *
 * - name `-N` (checked against GE's rules first), `-terse` for the bare id;
 * - the wrapper, a POSIX sh script, is what qsub spools (`-S /bin/sh`: a
 *   queue in GE's default posix_compliant mode ignores `#!`); it runs the
 *   spec's script with the interpreter its `#!` names (or `sh -c` for a
 *   command), since `-b y` loses the arguments' quoting;
 * - `-V` exports qsub's environment, which is the clean scheduler
 *   environment (job_env.ts), as sbatch exports its own; `-cwd` runs it where
 *   it was submitted, as Slurm does;
 * - output `-o` with `-j y` (Slurm's `%j`/`%A` become `$JOB_ID`, `%x`
 *   `$JOB_NAME`; an array's `%a` cannot be said 0-based in a GE path, so such
 *   an output goes to /dev/null and the array script writes its own
 *   `task-T.out`);
 * - walltime `-l h_rt=<seconds>`; memory as `-l mem_free=<size>`, a
 *   scheduling request that is not enforced: `h_vmem`, GE's enforced one, is
 *   an address-space rlimit that CUDA and JAX exceed at start-up (they map far
 *   more than they use);
 * - CPUs as `-pe <pe> N` (OUTERLOOP_SGE_PE, default `smp`), GPUs as the
 *   consumable count `-l gpu=N` (no device binding in SoGE), account `-A`,
 *   partition as the queue `-q`; a QOS has no GE equivalent and is left out;
 * - the dependency `afterany:<ids>` as `-hold_jid <array or job ids>`
 *   (an `A_T` waits on its whole array), `singleton` as `-hold_jid <name>`;
 *   `begin` (`now+N` seconds, or a local date-time) as `-a`;
 * - an array as `-t 1-N` (GE tasks are 1-based) with `-tc` as its throttle.
 */
import { BadInputError } from "../errors.ts";
import { assertOneCommand, type JobSpec, withDefaults } from "./job_spec.ts";

/** A job name GE refuses, said before anything runs (exit 2). */
export class SgeJobNameError extends BadInputError {
  override name = "SgeJobNameError";
}

/**
 * Refuses a job name GE would refuse (`"1abc" is not a valid object name`):
 * printable ASCII without white space or `/ : @ \ * ?`, not starting with
 * a digit. outerloop's own names (`eval-<tag>-…`) start with a letter.
 */
export function checkSgeJobName(name: string): string {
  const problem = name === ""
    ? "it is empty"
    : /^[0-9]/.test(name)
    ? "it starts with a digit"
    : /[^\x21-\x7e]/.test(name)
    ? "it holds white space or a character outside printable ASCII"
    : /[/:@\\*?]/.test(name)
    ? "it holds one of / : @ \\ * ?"
    : null;
  if (problem !== null) {
    throw new SgeJobNameError(
      `Invalid job name ${JSON.stringify(name)} for Grid Engine: ${problem}; ` +
        "use letters, digits, '-', '_' and '.', starting with a letter",
    );
  }
  return name;
}

/**
 * What every GE job runs (spooled by qsub, so the temp file may go at once):
 * sets OUTERLOOP_JOB_ID to the job's outerloop id (`JOB_ID`, or `JOB_ID_T`
 * with T = SGE_TASK_ID − 1 for an array task), runs its arguments, and
 * maps exit 99 and 100 to 1: GE reschedules a job that exits 99 (forever)
 * and puts one that exits 100 in an error state that holds its dependents —
 * elsewhere both are plain failures. The eval script has recorded the real
 * code in its `exit-code` file before this exit.
 */
export const WRAPPER = `#!/bin/sh
# outerloop Grid Engine job wrapper
if [ -n "\${SGE_TASK_ID:-}" ] && [ "$SGE_TASK_ID" != undefined ]; then
  OUTERLOOP_JOB_ID="\${JOB_ID}_$((SGE_TASK_ID - 1))"
else
  OUTERLOOP_JOB_ID=$JOB_ID
fi
export OUTERLOOP_JOB_ID
"$@"
ol_rc=$?
case $ol_rc in
  99|100)
    echo "outerloop: exit $ol_rc is read as 1 (Grid Engine reschedules a job that exits 99 and holds one that exits 100)" >&2
    exit 1 ;;
esac
exit $ol_rc
`;

/** What the argv needs besides the spec. */
export interface QsubOptions {
  /** The wrapper's path (a temp file holding WRAPPER). */
  readonly wrapper: string;
  /** The interpreter words of the script's `#!` line (`["/bin/sh"]`). */
  readonly interpreter: readonly string[];
  /** Epoch ms, for a `now+N` begin. */
  readonly now: number;
  /** The parallel environment for CPUs. */
  readonly pe: string;
  readonly tasks?: number;
  readonly throttle?: number;
}

/** The interpreter words of a script's first line: `#!/usr/bin/env bash` → ["/usr/bin/env", "bash"]; ["/bin/sh"] without one. */
export function shebang(firstLine: string): string[] {
  const m = /^#!\s*(\S.*?)\s*$/.exec(firstLine);
  return m ? m[1]!.split(/\s+/) : ["/bin/sh"];
}

/** The qsub argv for a spec (see the module's doc for what maps to what). */
export function qsubArgv(spec: JobSpec, o: QsubOptions): string[] {
  assertOneCommand(spec);
  const s = withDefaults(spec);
  const argv = ["qsub", "-terse", "-N", checkSgeJobName(s.jobName), "-S", "/bin/sh", "-V", "-cwd"];
  const array = o.tasks !== undefined;
  argv.push("-o", outputPath(s.output, array), "-j", "y");
  argv.push("-l", `h_rt=${s.timeMinutes * 60}`, "-l", `mem_free=${geMemory(s.mem)}`);
  if (s.cpus > 1) argv.push("-pe", o.pe, String(s.cpus));
  if (s.gpus) argv.push("-l", `gpu=${s.gpus}`);
  if (s.account) argv.push("-A", s.account);
  if (s.partition) argv.push("-q", s.partition);
  if (s.dependency) argv.push("-hold_jid", holdJid(s.dependency, s.jobName));
  if (s.begin) argv.push("-a", beginTime(s.begin, o.now));
  if (array) {
    if (!Number.isInteger(o.tasks) || o.tasks! < 1) {
      throw new RangeError(`An array needs 1 or more tasks, not ${o.tasks}`);
    }
    argv.push("-t", `1-${o.tasks}`);
    if (o.throttle !== undefined) argv.push("-tc", String(o.throttle));
  }
  // GE appends to -o already; every other extra is the user's own qsub option
  argv.push(...s.extra.filter((e) => e !== "--open-mode=append"));
  argv.push(o.wrapper);
  if (s.command) argv.push("/bin/sh", "-c", s.command);
  else argv.push(...o.interpreter, s.script, ...s.scriptArgs);
  return argv;
}

/** Slurm's output patterns in GE's words (see the module's doc). */
function outputPath(output: string, array: boolean): string {
  if (output.includes("%a")) return "/dev/null";
  const path = output.replace(
    /%([%jAxu])/g,
    (_, c: string) => c === "%" ? "%" : c === "x" ? "$JOB_NAME" : c === "u" ? "$USER" : "$JOB_ID",
  );
  return array && output === "/dev/null" ? "/dev/null" : path;
}

/** A Slurm memory size in GE's: a bare number is megabytes to Slurm and bytes to GE. */
export function geMemory(mem: string): string {
  return /^[0-9]+$/.test(mem) ? `${mem}M` : mem.toUpperCase();
}

/** `afterany:1:2_3` → `1,2`; `singleton` → the job's own name. Any other kind GE cannot say: refused. */
export function holdJid(dependency: string, name: string): string {
  if (dependency === "singleton") return name;
  const m = /^afterany:([0-9_:]+)$/.exec(dependency);
  if (!m) {
    throw new BadInputError(
      `Invalid --dependency ${JSON.stringify(dependency)} for Grid Engine: it can only wait for jobs to end ` +
        "(afterany:ID[:ID…] or singleton; -hold_jid has no afterok)",
    );
  }
  const ids = m[1]!.split(":").filter((p) => p !== "").map((p) => p.split("_")[0]!);
  return [...new Set(ids)].join(",");
}

/** `now+N` (seconds) or `YYYY-MM-DDTHH:MM[:SS]` (local time) as qsub -a's `[[CC]YY]MMDDhhmm[.SS]`. */
export function beginTime(begin: string, now: number): string {
  const rel = /^now\+([0-9]+)$/.exec(begin);
  let d: Date;
  if (rel) d = new Date(now + Number(rel[1]) * 1000);
  else {
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?$/.exec(begin);
    if (!m) {
      throw new BadInputError(
        `Invalid --begin ${JSON.stringify(begin)} for Grid Engine: expected now+SECONDS or YYYY-MM-DDTHH:MM[:SS]`,
      );
    }
    d = new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  }
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}.${
    p(d.getSeconds())
  }`;
}
