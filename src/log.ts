// Tested by tests/compute/slurm_test.ts
import { writeFd } from "./runtime/write.ts";

/**
 * Logs and progress go to stderr, never stdout: stdout is for results (`--json`).
 * `setLogLevel("quiet")` keeps only warnings; tests may swap the sink.
 */
export type LogLevel = "quiet" | "info";

let level: LogLevel = "info";
let sink: (line: string) => void = (line) => writeFd(2, line + "\n");

export function setLogLevel(next: LogLevel): void {
  level = next;
}

export function setLogSink(next: (line: string) => void): () => void {
  const previous = sink;
  sink = next;
  return () => (sink = previous);
}

export const log = {
  info(message: string): void {
    if (level === "info") sink(`outerloop: ${message}`);
  },
  warn(message: string): void {
    sink(`outerloop: warning: ${message}`);
  },
};
