import type { CrashSummary } from "../report/model.ts";
import type { CrashFacts } from "../rundir/decision_file.ts";

/** A crash as the reports show it: the measure, the cause and the end of its log (the message's lines after the first). */
export function crashSummary(c: CrashFacts): CrashSummary {
  return { measure: c.measure, cause: c.cause, logTail: c.message.split("\n").slice(1).join("\n") };
}
