import { statSync } from "node:fs";
import type { SubmitJson } from "../../output/job_outputs.ts";
import { type JobSpec, toArgv } from "../../compute/job_spec.ts";
import type { ComputeMode } from "../../compute/mode.ts";
import { BadInputError } from "../../errors.ts";
import { fileKind } from "../../fs/read_text_file.ts";
import { computeFlags, modeAndCluster, nonEmpty, wholeNumber } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { checkJobName, checkMemory, checkSchedulerName } from "../../compute/job_fields.ts";
import { defineLeaf } from "../command.ts";

/** What `outerloop submit` does, from its flags. */
export interface SubmitOptions {
  readonly spec: JobSpec;
  readonly mode: ComputeMode;
  /** Slurm's `-M` (`--clusters`, SLURM_CLUSTERS); "" for slurm.conf's own. */
  readonly cluster: string;
  readonly dryRun: boolean;
  readonly json: boolean;
}

/** Slurm's longest walltime we accept: a year, in minutes; anything longer is a typo. */
const MAX_MINUTES = 366 * 24 * 60;

/** `outerloop submit`: one job from JobSpec flags. */
export const submitCommand = defineLeaf<SubmitOptions>({
  meta: {
    name: "submit",
    description: "Submit one job; prints its id (--dry-run --json prints the sbatch argv, submitting nothing)",
  },
  args: {
    "job-name": { type: "string", valueHint: "NAME", description: "The job's name", required: true },
    account: { type: "string", valueHint: "NAME", description: "Slurm account" },
    partition: { type: "string", valueHint: "NAME", description: "Partition; empty lets Slurm pick its default" },
    time: { type: "string", valueHint: "MINUTES", description: "Walltime in minutes", defaultText: "60" },
    command: { type: "string", valueHint: "CMD", description: "Shell command to run (--wrap); or --script" },
    script: { type: "string", valueHint: "FILE", description: "Script file to run; or --command" },
    "script-arg": { type: "string", valueHint: "ARG", description: "An argument for --script", repeatable: true },
    cpus: { type: "string", valueHint: "N", description: "CPUs per task", defaultText: "1" },
    mem: { type: "string", valueHint: "SIZE", description: "Memory, e.g. 2G or 500M", defaultText: "2G" },
    gpus: { type: "string", valueHint: "N", description: "GPUs per node", defaultText: "0" },
    qos: { type: "string", valueHint: "NAME", description: "Quality of service" },
    output: { type: "string", valueHint: "FILE", description: "Output file", defaultText: "/dev/null" },
    dependency: { type: "string", valueHint: "DEP", description: "e.g. afterany:123:456 or singleton" },
    begin: { type: "string", valueHint: "TIME", description: "e.g. now+60 or 2026-12-01T08:00:00" },
    extra: {
      type: "string",
      valueHint: "ARG",
      description: "An extra sbatch argument, e.g. --extra=--exclusive",
      repeatable: true,
    },
    "dry-run": { type: "boolean", description: "Print what would be submitted; submit nothing" },
    ...computeFlags,
  },
  examples: [
    "outerloop submit --job-name probe --account a --time 5 --command 'hostname'",
    "outerloop submit --job-name x --script job.sh --script-arg 1 --dry-run --json",
  ],

  parse(args, env) {
    const command = nonEmpty("command", args.value("command"));
    const script = nonEmpty("script", args.value("script"));
    if ((command === undefined) === (script === undefined)) {
      throw new BadInputError("Give exactly one of --command and --script");
    }
    const scriptArgs = args.values("script-arg");
    if (command !== undefined && scriptArgs.length > 0) {
      throw new BadInputError("--script-arg goes with --script, not --command: put the arguments in the command");
    }
    const spec: JobSpec = {
      jobName: checkJobName("--job-name", args.value("job-name")!),
      account: checkSchedulerName("--account", args.value("account") ?? ""),
      partition: checkSchedulerName("--partition", args.value("partition") ?? ""),
      timeMinutes: wholeNumber("time", args.value("time"), 60, 1, MAX_MINUTES),
      ...(command !== undefined ? { command } : { script: script!, scriptArgs }),
      cpus: wholeNumber("cpus", args.value("cpus"), 1, 1),
      mem: checkMemory(args.value("mem") ?? "2G"),
      gpus: wholeNumber("gpus", args.value("gpus"), 0),
      qos: checkSchedulerName("--qos", args.value("qos") ?? ""),
      output: nonEmpty("output", args.value("output")) ?? "/dev/null",
      dependency: args.value("dependency") ?? "",
      begin: args.value("begin") ?? "",
      extra: checkExtra(args.values("extra")),
    };
    const where = modeAndCluster(args.value("compute"), args.value("clusters"), env);
    return { spec, ...where, dryRun: args.on("dry-run"), json: args.on("json") };
  },

  async execute(o, { io, compute }) {
    if (o.dryRun) {
      const argv = toArgv(o.spec);
      outLine(io, o.json ? JSON.stringify({ argv } satisfies SubmitJson) : argv.join(" "));
      return 0;
    }
    if (o.spec.script !== undefined) checkScript(o.spec.script);
    const jobId = await compute(o.mode, o.cluster).submit(o.spec);
    outLine(io, o.json ? JSON.stringify({ job_id: jobId } satisfies SubmitJson) : jobId);
    return 0;
  },
});

/**
 * The `--extra` sbatch arguments: none empty, and the first an option —
 * sbatch reads the first argument that is not an option (or an option's
 * value) as the script to run, so a bare `exclusive` would be taken for a
 * file. A later one may be the value of the option before it
 * (`--extra --mail-type --extra END`). Returns them unchanged.
 */
function checkExtra(extra: readonly string[]): readonly string[] {
  const bad = extra.findIndex((arg, i) => arg === "" || (i === 0 && !arg.startsWith("-")));
  if (bad >= 0) {
    throw new BadInputError(
      `Invalid --extra ${JSON.stringify(extra[bad])}: expected an sbatch option such as --extra=--exclusive ` +
        "(sbatch reads an argument that is not one as the script to run)",
    );
  }
  return extra;
}

/** The `--script` of a real submission: a regular file (the scheduler reads it now, from here). */
function checkScript(path: string): void {
  let kind: string | null;
  try {
    kind = fileKind(statSync(path));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    throw new BadInputError(`Invalid --script ${JSON.stringify(path)}: ${why}`, { cause: err });
  }
  if (kind !== null) throw new BadInputError(`Invalid --script ${JSON.stringify(path)}: it is ${kind}, not a file`);
}
