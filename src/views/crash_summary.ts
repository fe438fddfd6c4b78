import type { CrashSummary } from "../report/model.ts";
import type { CrashFacts } from "../rundir/decision_file.ts";

/** A crash as the reports show it: the measure, its job, the cause and the end of its log (the message's lines after the first). */
export function crashSummary(c: CrashFacts): CrashSummary {
  return { measure: c.measure, cause: c.cause, jobId: c.jobId, logTail: c.message.split("\n").slice(1).join("\n") };
}
