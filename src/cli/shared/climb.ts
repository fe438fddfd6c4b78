import type { RunSummary } from "../../report/model.ts";
import { readClimb } from "../../views/run_summary.ts";
import type { CliIo } from "./io.ts";

/** Every readable run of the climb (`readClimb`); each one skipped gets a warning on stderr naming its file. */
export function readClimbWarning(dir: string, io: CliIo): RunSummary[] {
  const { runs, skipped } = readClimb(dir);
  for (const { runDir, problem } of skipped) {
    io.stderr(`outerloop: warning: skipping ${runDir.path}: ${problem.message.split("\n")[0]}\n`);
  }
  return [...runs];
}
