// Tested by tests/measure/submit_limits_test.ts
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isAbsent } from "../fs/absent.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";

/**
 * `waiting-for-room.json` in the run dir: what the last pass could not
 * submit because a site's limit on submitted jobs (`MaxSubmitJobs`,
 * `AssocMaxSubmitJobLimit`, a QOS's) left no room — how many jobs wait and
 * under which limit — so `show` can say why measures are not dispatched
 * yet. Written by the pass that met the limit, removed by the one that
 * submits the rest.
 */
export const ROOM_NOTE = "waiting-for-room.json";

/** What waits, and why. */
export interface RoomNote {
  /** The limit that left no room, as the scheduler or the room query named it. */
  readonly limit: string;
  /** How many jobs (units) wait. */
  readonly waiting: number;
  /** When the pass met the limit (ISO 8601). */
  readonly at: string;
}

/** Writes the note, or removes it (null): atomically either way. */
export function writeRoomNote(runDir: string, note: RoomNote | null): void {
  const path = join(runDir, ROOM_NOTE);
  if (note === null) rmSync(path, { force: true });
  else atomicWriteFile(path, JSON.stringify(note));
}

/** The note, or null when nothing waits (or the file cannot be read: it is a hint for people). */
export function readRoomNote(runDir: string): RoomNote | null {
  const path = join(runDir, ROOM_NOTE);
  if (isAbsent(path)) return null;
  try {
    const j = JSON.parse(readFileSync(path, "utf8"));
    return typeof j?.limit === "string" && typeof j?.waiting === "number" && typeof j?.at === "string" ? j : null;
  } catch {
    return null;
  }
}
