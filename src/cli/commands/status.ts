import { assertJobId } from "../../compute/compute.ts";
import type { StatusJson } from "../../output/job_outputs.ts";
import type { ComputeMode } from "../../compute/mode.ts";
import { isPending } from "../../compute/states.ts";
import { computeFlags, modeAndCluster } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { defineLeaf } from "../command.ts";

export interface StatusOptions {
  readonly jobId: string;
  readonly mode: ComputeMode;
  /** Slurm's `-M` (`--clusters`, SLURM_CLUSTERS); "" for slurm.conf's own. */
  readonly cluster: string;
  readonly json: boolean;
}

/** `outerloop status ID`: the job's state, how long it ran, and for a queued job why it waits and where. */
export const statusCommand = defineLeaf<StatusOptions>({
  meta: {
    name: "status",
    description: "A job's state (GONE when the scheduler has no record of it), run time, pending reason, partition",
  },
  args: {
    ID: { type: "positional", description: "The job id" },
    ...computeFlags,
  },
  details: [
    'With --json: {"job_id", "state", "elapsed_s" (null when unknown), "pending_reason" and "partition"',
    "(null unless the job is queued)}.",
  ],

  parse(args, env) {
    const jobId = args.positional["ID"]!;
    assertJobId(jobId);
    return { jobId, ...modeAndCluster(args.value("compute"), args.value("clusters"), env), json: args.on("json") };
  },

  async execute(o, { io, compute }) {
    const c = compute(o.mode, o.cluster);
    const state = await c.status(o.jobId);
    const elapsed = await c.elapsedSeconds(o.jobId);
    // a queued job's reason and partition (a site may move a pending job) come from the queue itself
    const queued = isPending(state);
    const reason = queued ? await c.pendingReason(o.jobId) : "";
    const partition = queued ? await c.jobPartition(o.jobId) : "";
    if (o.json) {
      outLine(
        io,
        JSON.stringify(
          {
            job_id: o.jobId,
            state,
            elapsed_s: elapsed,
            pending_reason: reason || null,
            partition: partition || null,
          } satisfies StatusJson,
        ),
      );
    } else {
      const parts = [`${o.jobId} ${state}`, elapsed === null ? "" : `${elapsed}s`];
      if (reason) parts.push(`(${reason}${partition ? ` in ${partition}` : ""})`);
      outLine(io, parts.filter(Boolean).join(" "));
    }
    return 0;
  },
});
