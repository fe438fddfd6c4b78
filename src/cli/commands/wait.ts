import { runPhase } from "../../run/phase.ts";
import { EXIT } from "../../exit_codes.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import { jsonFlag, runDirPositional } from "../shared/common.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
import type { WaitTiming } from "../../run/wait.ts";
import { waitTiming, waitTimingFlags } from "../shared/wait_flags.ts";
import { waitAndReport } from "../shared/wait_output.ts";
import { defineLeaf } from "../command.ts";

export interface WaitOptions {
  readonly runDir: RunDir;
  readonly timing: WaitTiming;
  readonly json: boolean;
}

/** `outerloop wait RUN_DIR`: block until the run is decided; exit with the verdict. */
export const waitCommand = defineLeaf<WaitOptions>({
  meta: {
    name: "wait",
    description: "Block until a run is decided and exit with its verdict (the exit codes below)",
  },
  args: {
    ...runDirPositional,
    ...waitTimingFlags,
    ...jsonFlag,
  },
  details: [
    "Each poll reads the run's files and asks the scheduler at most one queue listing for all of its jobs.",
    "When nothing of the run is live and no verdict came (a lost wake job), it runs the resume pass itself.",
    "On a terminal, one progress line rewritten in place; elsewhere a line each time it changes.",
    `Ctrl-C detaches and --timeout gives up, both with exit ${EXIT.parked}: the jobs keep running, the wake decides.`,
    "With --json, the decision as `resume --json` prints it (a round's with its winner and candidates).",
  ],
  examples: ["outerloop wait ~/runs/r42 && git merge candidate", "outerloop wait ~/runs/r42 --timeout 3600 --json"],

  parse(args) {
    return {
      runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"),
      timing: waitTiming(args),
      json: args.on("json"),
    };
  },

  async execute(o, deps) {
    const record = readRunRecord(o.runDir);
    const pass = () => runPhase(o.runDir, phaseDeps(deps, record.compute, record.cluster));
    return await waitAndReport(o.runDir, record, deps, { timing: o.timing, json: o.json, pass });
  },
});
