import { wakePass } from "../../run/wake_pass.ts";
import { EXIT } from "../../exit_codes.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import type { CliDeps } from "../shared/io.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { finishedOutcome } from "../../evaluation/outcome.ts";
import { readRunSnapshot } from "../../evaluation/snapshot.ts";
import { jsonFlag, runDirPositional } from "../shared/common.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
import { reportOutcome } from "../shared/run_output.ts";
import { defineLeaf } from "../command.ts";

/** How long a resume waits for another process holding the run lock. */
const LOCK_WAIT_MS = 120_000;

export interface ResumeOptions {
  readonly runDir: RunDir;
  readonly json: boolean;
  /** `--wake`: a wake job's pass, which exits 0 whenever it ran. */
  readonly wake: boolean;
  /** `--retry-failed`: take a failed run up again, re-measuring only what failed. */
  readonly retryFailed: boolean;
}

/** `outerloop resume RUN_DIR`: what the wake job runs; safe to run by hand, any number of times. */
export const resumeCommand = defineLeaf<ResumeOptions>({
  meta: {
    name: "resume",
    description: "Continue a run from its run.json: read results, dispatch, park again, or decide",
  },
  args: {
    ...runDirPositional,
    ...jsonFlag,
    wake: {
      type: "boolean",
      description: `A wake job's pass: exit ${EXIT.ok} whenever the pass ran (parked, decided, failed or cancelled)`,
    },
    "retry-failed": {
      type: "boolean",
      description:
        "Take a failed run up again once its cause is fixed: re-measure only what failed, keeping every value",
    },
  },
  details: [
    "Safe to run by hand any number of times; exits like `measure`.",
    "A wake job runs it with --wake: the verdict is in decision.json and the job's log, so the job itself",
    "ends COMPLETED unless the pass could not run (the scheduler unreachable, bad input, a bug).",
    `A candidate whose eval crashed is a verdict (exit ${EXIT.crashed}), not a failure; a baseline's failure fails the run`,
    `(exit ${EXIT.evalFailed}): fix its cause, then --retry-failed sets the failed attempts aside (kept in their eval dirs,`,
    "the failure in failure-history.json) and sends only those measures again.",
  ],

  parse(args) {
    return {
      runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"),
      json: args.on("json"),
      wake: args.on("wake"),
      retryFailed: args.on("retry-failed"),
    };
  },

  async execute(o, deps) {
    if (!o.wake) return await resume(o, deps);
    return await wakePass(() => resume(o, deps), (line) => deps.io.stderr(`outerloop: ${line}\n`));
  },
});

/** The pass: a finished run's answer read back, else one pass under the lock. */
async function resume(o: ResumeOptions, deps: CliDeps): Promise<number> {
  {
    const record = readRunRecord(o.runDir);
    // a finished run is only read (its verdict reported again), loading nothing of the pass
    const done = finishedOutcome(readRunSnapshot(o.runDir, record));
    if (done) return reportOutcome(deps.io, o.runDir, record, done, o.json);
    // any other pass writes: the lock first
    o.runDir.checkWritable("RUN_DIR", "a pass writes its lock, results and verdict there: make it writable");
    const { runPhase } = await import("../../run/phase.ts");
    if (o.retryFailed) {
      const { retryFailedRun } = await import("../../run/retry_failed.ts");
      await retryFailedRun(o.runDir, record, phaseDeps(deps, record.compute, record.cluster, LOCK_WAIT_MS));
    }
    const outcome = await runPhase(o.runDir, phaseDeps(deps, record.compute, record.cluster, LOCK_WAIT_MS), record);
    return reportOutcome(deps.io, o.runDir, record, outcome, o.json);
  }
}
