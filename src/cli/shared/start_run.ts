import type { ComputeMode } from "../../compute/mode.ts";
import { runPhase, startRun } from "../../run/phase.ts";
import type { WaitTiming } from "../../run/wait.ts";
import type { RunDir } from "../../rundir/run_dir.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import type { CliDeps } from "./io.ts";
import { phaseDeps } from "./phase_deps.ts";
import { reportOutcome } from "./run_output.ts";
import { waitAfterPark } from "./wait_output.ts";

/** How `measure` and `calibrate` start a prepared run. */
export interface StartOptions {
  readonly runDir: RunDir;
  readonly mode: ComputeMode;
  readonly json: boolean;
  /** `--wait`: after a park, wait for the answer with this timing; null without it. */
  readonly wait: WaitTiming | null;
}

/**
 * Creates the run dir, starts the run (`startRun`: freeze, pin, first
 * pass) and prints where it stands with its exit code; with `--wait`, a
 * park is waited out like `outerloop wait` and the answer printed instead.
 */
export async function startAndReport(record: RunRecord, deps: CliDeps, o: StartOptions): Promise<number> {
  o.runDir.create("--run-dir");
  const outcome = await startRun(o.runDir, record, phaseDeps(deps, o.mode, record.cluster));
  if (o.wait !== null && outcome.kind === "parked") {
    const pass = () => runPhase(o.runDir, phaseDeps(deps, o.mode, record.cluster));
    return await waitAfterPark(o.runDir, deps, outcome, { timing: o.wait, json: o.json, pass });
  }
  return reportOutcome(deps.io, o.runDir, record, outcome, o.json);
}
