import { randomHex } from "../runtime/digest.ts";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `text` to `path` so that a reader sees the old file or the whole new
 * one, never a half-written one: a unique temporary file beside the target,
 * flushed, then renamed over it. Concurrent writers each land a whole file;
 * the last rename wins.
 */
export function atomicWriteFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`);
  const fd = openSync(tmp, "wx", 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** `atomicWriteFile` of a JSON value, with a trailing newline. */
export function atomicWriteJson(path: string, value: unknown): void {
  atomicWriteFile(path, JSON.stringify(value, null, 2) + "\n");
}
