import { defineCommand } from "citty";
import { assertJobId } from "../compute/index.ts";
import { computeArgs, out, resolveCompute } from "./common_args.ts";

/** `outerloop cancel ID`: idempotent; cancelling a finished job is not an error. */
export const cancelCommand = defineCommand({
  meta: { name: "cancel", description: "Cancel a job (idempotent)" },
  args: { id: { type: "positional", description: "Job id", required: true }, ...computeArgs },
  async run({ args }) {
    assertJobId(args.id);
    await resolveCompute(args.compute).cancel(args.id);
    out(args.json ? JSON.stringify({ job_id: args.id, cancelled: true }) : `cancelled ${args.id}`);
  },
});
