import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { tempDir } from "./temp.ts";

/** A directory to fill, then make read-only, then give back. */
export interface ReadOnlyDir {
  readonly dir: string;
  /** "mount": a tmpfs remounted read-only (EROFS); "mode": a directory without write permission (EACCES). */
  readonly how: "mount" | "mode";
  /** Makes `dir` read-only; fill it before. */
  seal(): void;
  /** Makes it removable again (unmounts the tmpfs); call it once the test is over, sealed or not. */
  release(): void;
}

/**
 * A fresh, writable directory that `seal()` makes read-only: for root (whom
 * no file mode stops) a tmpfs mounted there and remounted read-only, for
 * anyone else a mode of 0555 on it and every directory in it. Null when neither can be had (root without
 * the right to mount): the caller skips, saying why.
 */
export function readOnlyDir(): ReadOnlyDir | null {
  const dir = tempDir("ro-");
  if (process.getuid?.() !== 0) {
    return { dir, how: "mode", seal: () => chmodTree(dir, 0o555), release: () => chmodTree(dir, 0o755) };
  }
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", dir], { stdio: "ignore" });
  } catch {
    return null;
  }
  return {
    dir,
    how: "mount",
    seal: () => execFileSync("mount", ["-o", "remount,ro", dir], { stdio: "ignore" }),
    release: () => execFileSync("umount", [dir], { stdio: "ignore" }),
  };
}

/** Why `readOnlyDir()` would give null here, for a test's `skip`; null when it works (tried once, and undone). */
export function readOnlyUnavailable(): string | null {
  const ro = readOnlyDir();
  if (ro === null) return "cannot mount a read-only tmpfs here (root without the right to mount)";
  ro.release();
  return null;
}

/** Sets the mode of `dir` and of every directory below it (parents first: undoing 0555 needs no order). */
function chmodTree(dir: string, mode: number): void {
  chmodSync(dir, mode | 0o500);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) chmodTree(join(dir, entry.name), mode);
  }
  chmodSync(dir, mode);
}
