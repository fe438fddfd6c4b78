import { readFileSync } from "node:fs";

/**
 * Who a process is, from Linux's `/proc/<pid>/stat`: its parent and its
 * process group. Enough to tell that a process group recorded by another
 * process is still that process's child and not an unrelated process that
 * reused the pid. Null when the process is gone or `/proc` cannot say (not
 * Linux): then nothing may be concluded, and a caller that would signal the
 * group does not.
 */
export interface ProcStat {
  readonly pid: number;
  /** The parent's pid. */
  readonly ppid: number;
  /** The process group's id: the pid itself for a group leader. */
  readonly pgid: number;
}

/** `/proc/<pid>/stat` read, or null (gone, or no `/proc`). */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  return parseProcStat(text);
}

/**
 * Parses a `/proc/<pid>/stat` line: `pid (comm) state ppid pgrp …`. The
 * command name may hold spaces and parentheses, so the fields are read after
 * its LAST `)`.
 */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isInteger(pid)) return null;
  const [, ppid, pgid] = text.slice(close + 1).trim().split(/\s+/).map(Number);
  if (!Number.isInteger(ppid) || !Number.isInteger(pgid)) return null;
  return { pid, ppid: ppid!, pgid: pgid! };
}
