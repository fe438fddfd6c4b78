import { readRunRecord } from "../../rundir/run_record.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { finishedOutcome } from "../../views/outcome.ts";
import { jsonFlag, runDirPositional } from "../shared/common.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
import { reportOutcome } from "../shared/run_output.ts";
import { defineLeaf } from "../command.ts";

/** How long a resume waits for another process holding the run lock. */
const LOCK_WAIT_MS = 120_000;

export interface ResumeOptions {
  readonly runDir: RunDir;
  readonly json: boolean;
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
  },
  details: ["Safe to run by hand any number of times; exits like `measure`."],

  parse(args) {
    return { runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"), json: args.on("json") };
  },

  async execute(o, deps) {
    const record = readRunRecord(o.runDir);
    // a finished run is only read (its verdict reported again), loading nothing of the pass
    const done = finishedOutcome(o.runDir, record);
    if (done) return reportOutcome(deps.io, o.runDir, done, o.json);
    // any other pass writes: the lock first
    o.runDir.checkWritable("RUN_DIR", "a pass writes its lock, results and verdict there: make it writable");
    const { runPhase } = await import("../../run/phase.ts");
    const outcome = await runPhase(o.runDir, phaseDeps(deps, record.compute, LOCK_WAIT_MS));
    return reportOutcome(deps.io, o.runDir, outcome, o.json);
  },
});
