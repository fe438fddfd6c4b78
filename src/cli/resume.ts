import { defineCommand } from "citty";
import { resolve } from "node:path";
import { computeFor } from "../compute/index.ts";
import { runPhase } from "../run/phase.ts";
import { readRunRecord } from "../run/run_record.ts";
import { selfCommand } from "../runtime/self.ts";
import { runDirArgs } from "./common_args.ts";
import { reportOutcome } from "./run_output.ts";

/** How long a resume waits for another process holding the run lock. */
const LOCK_WAIT_MS = 120_000;

/** `outerloop resume RUN_DIR`: what the wake job runs; safe to run by hand, any number of times. */
export const resumeCommand = defineCommand({
  meta: {
    name: "resume",
    description: "Continue a run from its run.json: read results, dispatch, park again, or decide",
  },
  args: runDirArgs,
  async run({ args }) {
    const runDir = resolve(args.runDir);
    const record = readRunRecord(runDir);
    const outcome = await runPhase(runDir, {
      compute: computeFor(record.compute),
      self: selfCommand(),
      lockWaitMs: LOCK_WAIT_MS,
    });
    return reportOutcome(runDir, outcome, Boolean(args.json));
  },
});
