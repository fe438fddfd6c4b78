import { assertJobId } from "../compute/compute.ts";
import type { ComputeMode } from "../compute/mode.ts";
import { computeFlags, resolveMode } from "./common.ts";
import { type CliCommand, outLine } from "./io.ts";

export interface CancelOptions {
  readonly jobId: string;
  readonly mode: ComputeMode;
  readonly json: boolean;
}

/** `outerloop cancel ID`: idempotent; cancelling a finished job is not an error. */
export const cancelCommand: CliCommand<CancelOptions> = {
  spec: {
    name: "cancel",
    summary: "Cancel a job (idempotent: cancelling a finished job is not an error)",
    positionals: [{ name: "ID", description: "The job id" }],
    flags: computeFlags,
  },

  parse(args, env) {
    const jobId = args.positional["ID"]!;
    assertJobId(jobId);
    return { jobId, mode: resolveMode(args.value("compute"), env), json: args.on("json") };
  },

  async run(o, { io, compute }) {
    await compute(o.mode).cancel(o.jobId);
    outLine(io, o.json ? JSON.stringify({ job_id: o.jobId, cancelled: true }) : `cancelled ${o.jobId}`);
    return 0;
  },
};
