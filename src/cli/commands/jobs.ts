import type { ComputeMode } from "../../compute/mode.ts";
import type { JobsJson } from "../../output/job_outputs.ts";
import { escapeControls } from "../../text/terminal.ts";
import { computeFlags, modeAndCluster, nonEmpty } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { defineLeaf } from "../command.ts";

export interface JobsOptions {
  /** Only the live job with exactly this name. */
  readonly name: string | undefined;
  /** Only the names. */
  readonly namesOnly: boolean;
  readonly mode: ComputeMode;
  /** Slurm's `-M` (`--clusters`, SLURM_CLUSTERS); "" for slurm.conf's own. */
  readonly cluster: string;
  readonly json: boolean;
}

/** `outerloop jobs`: this user's queued and running jobs, from one queue query. */
export const jobsCommand = defineLeaf<JobsOptions>({
  meta: { name: "jobs", description: "This user's queued and running jobs, from one queue listing" },
  args: {
    name: {
      type: "string",
      valueHint: "NAME",
      description: "Print only the id of the live job with exactly this name",
    },
    names: { type: "boolean", description: "Print only the jobs' names" },
    ...computeFlags,
  },
  details: [
    'With --json: {"jobs": [{"job_id", "name", "state", "reason", "partition"}]};',
    'with --name: {"name", "job_id"} (job_id null when no live job has the name).',
  ],

  parse(args, env) {
    return {
      name: nonEmpty("name", args.value("name")),
      namesOnly: args.on("names"),
      ...modeAndCluster(args.value("compute"), args.value("clusters"), env),
      json: args.on("json"),
    };
  },

  async execute(o, { io, compute }) {
    const c = compute(o.mode, o.cluster);
    if (o.name !== undefined) {
      const id = await c.jobIdForName(o.name);
      if (o.json) outLine(io, JSON.stringify({ name: o.name, job_id: id || null } satisfies JobsJson));
      else if (id) outLine(io, id);
      return 0;
    }
    if (o.namesOnly) {
      const names = await c.activeJobNames();
      if (o.json) outLine(io, JSON.stringify({ names } satisfies JobsJson));
      else for (const n of names) outLine(io, escapeControls(n));
      return 0;
    }
    const jobs = [...(await c.activeJobs()).values()].flat();
    if (o.json) {
      const list = jobs.map((j) => ({
        job_id: j.id,
        name: j.name,
        state: j.state,
        reason: j.reason,
        partition: j.partition,
        // the batch script it runs (an eval job's lies in its run's eval dir); null for a --wrap job
        script: j.script === "" ? null : j.script,
      }));
      outLine(io, JSON.stringify({ jobs: list } satisfies JobsJson));
    } else {
      // any job of the user's is listed, and its name is whatever they gave it
      for (const j of jobs) outLine(io, escapeControls([j.id, j.name, j.state, j.partition, j.reason].join("\t")));
    }
    return 0;
  },
});
