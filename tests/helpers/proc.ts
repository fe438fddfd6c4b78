import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { readFileSync } from "node:fs";

/** Whether a process is alive; a zombie counts as dead (it runs nothing). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The result of a process that ran to `exitCode`: what scripted runners in tests answer. */
export function exited(exitCode: number, stdout = "", stderr = "", argv: readonly string[] = []): SpawnResult {
  return { argv, exitCode, signal: null, stdout, stderr, durationMs: 1, timedOut: false, drainAbandoned: false };
}
