import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

const made: string[] = [];

// once the importing file's tests are done (this module is loaded at the top of it): a runner that runs
// files side by side ends its workers without an "exit" event (bun test --parallel)
after(removeAll);

/**
 * A fresh directory under the system temp dir, removed when the test file is
 * done, or else when the test process exits: the suite leaves nothing behind
 * (`scripts/test.sh` checks).
 */
export function tempDir(prefix = "ol-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (made.length === 0) {
    // bun test ends with the process's "exit"; deno test with the global "unload" event instead
    process.on("exit", removeAll);
    globalThis.addEventListener?.("unload", removeAll);
  }
  made.push(dir);
  return dir;
}

/** The dirs `tempDir` made in this process, not yet removed. */
export function tempDirsMade(): readonly string[] {
  return made;
}

/** Every dir made, each on its own: one that cannot be removed is named, and never keeps the rest. */
function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      remove(dir);
    } catch (err) {
      process.stderr.write(`*** could not remove the test dir ${dir}: ${(err as Error).message}\n`);
    }
  }
}

// a job's last writes (its output file, a checkout removed as it ends) can race the removal: ENOTEMPTY is retried
const RETRIED = { recursive: true, force: true, maxRetries: 5, retryDelay: 200 } as const;

/** Removes a tree, first making read-only directories (a test's on purpose) writable again. */
export function remove(dir: string): void {
  try {
    rmSync(dir, RETRIED);
  } catch {
    makeWritable(dir);
    rmSync(dir, RETRIED);
  }
}

function makeWritable(path: string): void {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return;
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) makeWritable(join(path, name));
  } catch {
    // gone already
  }
}
