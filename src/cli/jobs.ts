import { defineCommand } from "citty";
import { computeArgs, out, resolveCompute } from "./common_args.ts";

/** `outerloop jobs`: this user's pending and running jobs, from one queue query. */
export const jobsCommand = defineCommand({
  meta: { name: "jobs", description: "This user's pending and running jobs" },
  args: computeArgs,
  async run({ args }) {
    const jobs = await resolveCompute(args.compute).activeJobs();
    const list = [...jobs].flatMap(([name, ids]) => ids.map((id) => ({ job_id: id, name })));
    if (args.json) out(JSON.stringify({ jobs: list }));
    else for (const j of list) out(`${j.job_id}\t${j.name}`);
  },
});
