import { assertJobId, isJobId } from "../../compute/compute.ts";
import type { CancelJson } from "../../output/job_outputs.ts";
import type { ComputeMode } from "../../compute/mode.ts";
import { cancelRun } from "../../run/cancel_run.ts";
import { describeStop } from "../../run/stop_local_pass.ts";
import { failureHeadline } from "../../rundir/failure_file.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import { computeFlags, resolveCluster, resolveMode } from "../shared/common.ts";
import { type CliIo, outLine } from "../shared/io.ts";
import { defineLeaf } from "../command.ts";
import { EXIT } from "../../exit_codes.ts";

export interface CancelOptions {
  /** An all-digits argument is a job id; anything else a run dir. */
  readonly target: { readonly kind: "job"; readonly jobId: string } | { readonly kind: "run"; readonly dir: RunDir };
  readonly mode: ComputeMode;
  /** Slurm's `-M` (`--clusters`, SLURM_CLUSTERS); "" for slurm.conf's own. */
  readonly cluster: string;
  readonly json: boolean;
}

/** `outerloop cancel ID|RUN_DIR`: one job, or every job of a run; idempotent. */
export const cancelCommand = defineLeaf<CancelOptions>({
  meta: { name: "cancel", description: "Cancel a job, or every queued or running job of a run (idempotent)" },
  args: {
    "ID|RUN_DIR": { type: "positional", description: "A job id (digits only), or a run dir" },
    ...computeFlags,
  },
  details: [
    "An argument of digits only is a job id: write a run dir named with digits only as ./123.",
    "For a run dir: records that the user cancelled the run (then show, resume and wait say so, and no",
    "pass dispatches anything), and cancels its eval jobs and its wake job with one scancel; for a local run,",
    `stops the evals the measuring process runs (it exits ${EXIT.evalFailed}, writing no verdict).`,
    "A decided, failed or already cancelled run is left as it is (any job of it still live is cancelled).",
    "--compute and --clusters apply to a job id; a run uses the backend and cluster in its run.json.",
  ],
  examples: ["outerloop cancel 12345", "outerloop cancel ~/runs/r42", "outerloop cancel ./123"],

  parse(args, env) {
    const arg = args.positional["ID|RUN_DIR"]!;
    const mode = resolveMode(args.value("compute"), env);
    const cluster = resolveCluster(args.value("clusters"), env, mode);
    if (isJobId(arg)) {
      assertJobId(arg);
      return { target: { kind: "job", jobId: arg }, mode, cluster, json: args.on("json") };
    }
    return { target: { kind: "run", dir: RunDir.checked(arg, "RUN_DIR") }, mode, cluster, json: args.on("json") };
  },

  async execute(o, { io, compute, now }) {
    if (o.target.kind === "job") {
      await compute(o.mode, o.cluster).cancel(o.target.jobId);
      outLine(
        io,
        o.json
          ? JSON.stringify({ job_id: o.target.jobId, cancelled: true } satisfies CancelJson)
          : `cancelled ${o.target.jobId}`,
      );
      return 0;
    }
    const dir = o.target.dir;
    const record = readRunRecord(dir);
    const outcome = await cancelRun(dir, record, compute(record.compute, record.cluster), now);
    printOutcome(io, dir, outcome, o.json);
    return 0;
  },
});

function printOutcome(io: CliIo, dir: RunDir, o: Awaited<ReturnType<typeof cancelRun>>, json: boolean): void {
  if (o.kind === "decided") {
    if (json) {
      outLine(
        io,
        JSON.stringify({ run_dir: dir.path, cancelled: false, state: "decided", jobs: [] } satisfies CancelJson),
      );
    } else {outLine(
        io,
        `run ${dir.path} was decided (${o.decision.verdict}) on ${o.decision.decidedAt}: nothing to cancel`,
      );}
    return;
  }
  if (o.kind === "failed") {
    if (json) {
      outLine(
        io,
        JSON.stringify({ run_dir: dir.path, cancelled: false, state: "failed", jobs: o.jobs } satisfies CancelJson),
      );
    } else {
      const left = o.jobs.length > 0 ? `cancelled its leftover job(s) ${o.jobs.join(", ")}` : "nothing to cancel";
      outLine(io, `run ${dir.path} failed on ${o.failure.failedAt} (${failureHeadline(o.failure.message)}): ${left}`);
    }
    return;
  }
  if (json) {
    outLine(
      io,
      JSON.stringify(
        {
          run_dir: dir.path,
          cancelled: true,
          state: "cancelled",
          cancelled_at: o.at,
          already: o.already,
          jobs: o.jobs,
          ...(o.local ? { processes: o.local.groups } : {}),
        } satisfies CancelJson,
      ),
    );
    return;
  }
  const jobs = o.local
    ? describeStop(o.local)
    : o.jobs.length > 0
    ? `cancelled job(s) ${o.jobs.join(", ")}`
    : "no job of it was queued or running";
  outLine(
    io,
    o.already
      ? `run ${dir.path} was already cancelled by user on ${o.at}; ${jobs}`
      : `cancelled run ${dir.path} on ${o.at}: ${jobs}`,
  );
}
