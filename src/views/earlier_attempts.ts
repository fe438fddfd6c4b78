// Tested by tests/views/earlier_attempts_test.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES, evalDirPath } from "../dispatch/eval_files.ts";
import { attemptsOf } from "../measure/attempts.ts";
import { slot } from "../measure/identity.ts";
import type { Measure } from "../measure/measure.ts";
import type { RunDir } from "../rundir/run_dir.ts";

/**
 * An attempt of a measure that ended without giving it its value, kept in
 * its eval dir's `attempt-<n>/` (measure/attempts.ts): a job sent again
 * after an end that was nobody's code (cancelled by someone else, preempted,
 * its node lost), a failed one taken up again, or a run the scheduler itself
 * requeued. `show` names each, so a node lost mid-measure, or a preemption,
 * is seen, and a value is known to come from its last attempt only.
 */
export interface EarlierAttempt {
  readonly n: number;
  readonly jobId: string;
  /** The host it ran on, from its `started` line; "" when it never started. */
  readonly host: string;
  /** Whether the scheduler ran the same job again (a requeue) rather than outerloop sending a new one. */
  readonly requeued: boolean;
  /** Why it was set aside, in one line. */
  readonly why: string;
}

/** Each measure's earlier attempts, oldest first, by measure name; a measure with none is left out. */
export function earlierAttempts(
  dir: RunDir,
  image: string,
  measures: readonly Measure[],
): Record<string, readonly EarlierAttempt[]> {
  const out: Record<string, EarlierAttempt[]> = {};
  for (const m of measures) {
    const found = attemptsOf(evalDirPath(dir.path, slot(image, m)));
    if (found.length === 0) continue;
    out[m.name] = found.map((a) => ({
      n: a.n,
      jobId: a.jobId,
      host: firstLine(join(a.dir, EVAL_FILES.started)).split(" ")[1] ?? "",
      requeued: a.requeued,
      why: firstLine(join(a.dir, "why")),
    }));
  }
  return out;
}

/** The attempts as `show` lists them, a line each: measure, job, host, why. */
export function formatEarlierAttempts(attempts: Readonly<Record<string, readonly EarlierAttempt[]>>): string {
  const lines = Object.entries(attempts).flatMap(([name, list]) =>
    list.map((a) => `  ${name}: job ${a.jobId}${a.host ? ` on ${a.host}` : ""}: ${a.why || "set aside"}`)
  );
  return `earlier attempts (kept in each eval dir's attempt-<n>/; a value is its last attempt's):\n${
    lines.join("\n")
  }\n`;
}

function firstLine(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n")[0]!.trim();
  } catch {
    return "";
  }
}
