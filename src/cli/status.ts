import { defineCommand } from "citty";
import { assertJobId, isPending } from "../compute/index.ts";
import { computeArgs, out, resolveCompute } from "./common_args.ts";

/** `outerloop status ID`: the job's state, how long it ran, why it waits. */
export const statusCommand = defineCommand({
  meta: { name: "status", description: "A job's state (GONE when the scheduler has no record of it)" },
  args: { id: { type: "positional", description: "Job id", required: true }, ...computeArgs },
  async run({ args }) {
    assertJobId(args.id);
    const compute = resolveCompute(args.compute);
    const state = await compute.status(args.id);
    const elapsed = await compute.elapsedSeconds(args.id);
    const reason = isPending(state) ? await compute.pendingReason(args.id) : "";
    if (args.json) {
      out(JSON.stringify({ job_id: args.id, state, elapsed_s: elapsed, pending_reason: reason || null }));
    } else {
      out(
        [`${args.id} ${state}`, elapsed === null ? "" : `${elapsed}s`, reason ? `(${reason})` : ""].filter(Boolean)
          .join(" "),
      );
    }
  },
});
