import { defineCommand } from "citty";
import { type JobSpec, toArgv } from "../compute/index.ts";
import { computeArgs, intFlag, out, resolveCompute } from "./common_args.ts";
import { UsageError } from "./errors.ts";
import { repeatedFlag } from "./strict_flags.ts";

const args = {
  ...computeArgs,
  "job-name": { type: "string", description: "Job name (--job-name)", required: true },
  account: { type: "string", description: "Slurm account" },
  partition: { type: "string", description: "Partition; empty lets Slurm pick its default" },
  time: { type: "string", description: "Walltime in minutes", default: "60", valueHint: "MINUTES" },
  command: { type: "string", description: "Shell command to run (--wrap); exclusive with --script" },
  script: { type: "string", description: "Script file to run; exclusive with --command" },
  "script-arg": { type: "string", description: "An argument for the script (repeatable)" },
  cpus: { type: "string", description: "CPUs per task", default: "1" },
  mem: { type: "string", description: "Memory, e.g. 2G", default: "2G" },
  gpus: { type: "string", description: "GPUs per node", default: "0" },
  qos: { type: "string", description: "Quality of service" },
  output: { type: "string", description: "Output file", default: "/dev/null" },
  dependency: { type: "string", description: "e.g. afterany:123:456 or singleton" },
  begin: { type: "string", description: "e.g. now+60 or 2026-12-01T08:00:00" },
  extra: { type: "string", description: "An extra sbatch argument (repeatable), e.g. --extra=--exclusive" },
  "dry-run": { type: "boolean", description: "Print what would be submitted; submit nothing" },
} as const;

/** `outerloop submit`: one job from JobSpec flags. */
export const submitCommand = defineCommand({
  meta: { name: "submit", description: "Submit one job; prints its id (--dry-run --json prints the sbatch argv)" },
  args,
  async run({ args, rawArgs }) {
    const command = args.command ?? "";
    const script = args.script ?? "";
    if (Boolean(command) === Boolean(script)) {
      throw new UsageError("Give exactly one of --command and --script");
    }
    const spec: JobSpec = {
      jobName: args["job-name"],
      account: args.account ?? "",
      partition: args.partition ?? "",
      timeMinutes: intFlag("time", args.time, 60, 1),
      command,
      script,
      scriptArgs: repeatedFlag(rawArgs, "script-arg"),
      cpus: intFlag("cpus", args.cpus, 1, 1),
      mem: args.mem,
      gpus: intFlag("gpus", args.gpus, 0),
      qos: args.qos ?? "",
      output: args.output,
      dependency: args.dependency ?? "",
      begin: args.begin ?? "",
      extra: repeatedFlag(rawArgs, "extra"),
    };
    if (args["dry-run"]) {
      const argv = toArgv(spec);
      out(args.json ? JSON.stringify({ argv }) : argv.join(" "));
      return;
    }
    const jobId = await resolveCompute(args.compute).submit(spec);
    out(args.json ? JSON.stringify({ job_id: jobId }) : jobId);
  },
});
