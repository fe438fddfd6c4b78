import { runtimeGlobal, runtimeName } from "./detect.ts";

/**
 * The command line that runs this same program again — what a wake job
 * executes. The compiled binary names itself; under `deno run` / `bun run`
 * it is the runtime plus the absolute entry file.
 */
export function selfCommand(): string[] {
  if (runtimeName() === "bun") {
    const Bun = runtimeGlobal("Bun");
    const main = String(Bun.main);
    // a `bun build --compile` binary serves its sources from an embedded /$bunfs
    if (main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/")) return [process.execPath];
    return [process.execPath, "run", main];
  }
  if (runtimeName() === "deno") {
    const Deno = runtimeGlobal("Deno");
    // the main module is a file: URL (no node:url to load for it)
    return [Deno.execPath(), "run", "-A", decodeURIComponent(new URL(Deno.mainModule).pathname)];
  }
  return [process.execPath, process.argv[1] ?? ""];
}
