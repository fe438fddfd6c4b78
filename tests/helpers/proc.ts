import { readFileSync } from "node:fs";

/** Whether a process is alive; a zombie counts as dead (it runs nothing). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
