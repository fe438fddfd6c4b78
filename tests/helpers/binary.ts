import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";

const root = join(import.meta.dirname!, "..", "..");
/** The compiled binary the end-to-end tests run. */
export const BINARY = join(root, "dist", "outerloop");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/outerloop (native only) when it is missing or older than src/. */
export async function ensureBinary(): Promise<string> {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= newestSource(join(root, "src"))) return BINARY;
  const r = await spawn({
    argv: ["bash", "scripts/build.sh", "--native-only"],
    cwd: root,
    output: "combined",
    timeoutMs: 300_000,
  });
  if (r.exitCode !== 0) throw new Error(`Building the binary failed:\n${r.stdout}`);
  return BINARY;
}
