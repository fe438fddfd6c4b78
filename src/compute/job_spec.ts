/**
 * One sbatch submission. Exactly one of `command` (run via `--wrap`) and
 * `script` (a file, with `scriptArgs`) is set.
 *
 * `--wrap` executes under a shell on the compute node: `command` must be built
 * from trusted parts, with anything variable passed through `quoteCommand`.
 * Never interpolate agent- or contract-supplied text.
 */
export interface JobSpec {
  readonly jobName: string;
  readonly account: string;
  /** Empty lets Slurm pick its default partition. */
  readonly partition: string;
  readonly timeMinutes: number;
  readonly command?: string;
  readonly script?: string;
  readonly scriptArgs?: readonly string[];
  /** Default `DEFAULT_CPUS`. */
  readonly cpus?: number;
  /** A Slurm memory size (`isMemorySize`); default `DEFAULT_MEM`. */
  readonly mem?: string;
  /** GPUs per node; default 0. */
  readonly gpus?: number;
  readonly qos?: string;
  /** Default "/dev/null". */
  readonly output?: string;
  /** e.g. "afterany:12345" or "singleton". */
  readonly dependency?: string;
  /** e.g. "now+30" or "YYYY-MM-DDTHH:MM:SS". */
  readonly begin?: string;
  readonly extra?: readonly string[];
}

/** The reference's CPUs per job. */
export const DEFAULT_CPUS = 1;
/** The reference's memory per job. */
export const DEFAULT_MEM = "2G";

/** A Slurm `--mem` size: whole megabytes (`1024`), or a whole number of K, M, G or T (`500M`, `2G`). */
export function isMemorySize(value: string): boolean {
  return /^[1-9][0-9]*[KMGT]?$/i.test(value);
}

/** A Slurm memory size times a whole `factor`, in its own unit: `scaleMemory("2G", 2)` is `"4G"`. */
export function scaleMemory(size: string, factor: number): string {
  const m = /^([1-9][0-9]*)([KMGT]?)$/i.exec(size);
  if (m === null || !Number.isInteger(factor) || factor < 1) {
    throw new RangeError(`Cannot scale memory ${JSON.stringify(size)} by ${factor}`);
  }
  return `${Number(m[1]) * factor}${m[2]}`;
}

/** The spec with every default filled in. */
export type FullJobSpec = Required<JobSpec>;

/** Fills the reference's defaults into a spec. */
export function withDefaults(spec: JobSpec): FullJobSpec {
  return {
    command: "",
    script: "",
    scriptArgs: [],
    cpus: DEFAULT_CPUS,
    mem: DEFAULT_MEM,
    gpus: 0,
    qos: "",
    output: "/dev/null",
    dependency: "",
    begin: "",
    extra: [],
    ...stripUndefined(spec),
  };
}

function stripUndefined(spec: JobSpec): JobSpec {
  return Object.fromEntries(
    Object.entries(spec).filter(([, v]) => v !== undefined),
  ) as unknown as JobSpec;
}

/** Throws unless exactly one of command/script is set (the reference's rule). */
export function assertOneCommand(spec: JobSpec): void {
  if (Boolean(spec.command) === Boolean(spec.script)) {
    throw new TypeError("exactly one of command/script must be set");
  }
}

/** The sbatch argv for a spec, identical to the reference's `JobSpec.to_argv()`. */
export function toArgv(spec: JobSpec): string[] {
  assertOneCommand(spec);
  const s = withDefaults(spec);
  const argv = [
    "sbatch",
    "--parsable",
    `--job-name=${s.jobName}`,
    `--account=${s.account}`,
    `--time=${s.timeMinutes}`,
    `--cpus-per-task=${s.cpus}`,
    `--mem=${s.mem}`,
    `--output=${s.output}`,
  ];
  if (s.partition) argv.push(`--partition=${s.partition}`);
  // per NODE, not per job: submit plugins classify a job by its per-node GRES,
  // and the per-job form has been rejected on GPU partitions
  if (s.gpus) argv.push(`--gpus-per-node=${s.gpus}`);
  if (s.qos) argv.push(`--qos=${s.qos}`);
  if (s.dependency) argv.push(`--dependency=${s.dependency}`);
  if (s.begin) argv.push(`--begin=${s.begin}`);
  argv.push(...s.extra);
  if (s.command) argv.push(`--wrap=${s.command}`);
  else argv.push(s.script, ...s.scriptArgs);
  return argv;
}
