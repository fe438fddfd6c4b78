/**
 * The entry point: the only place that sets the exit code. Everything below
 * throws or returns one. A command's modules are loaded when it runs
 * (`cli/app.ts`), each in a chunk of its own in the compiled binary
 * (`scripts/build.sh`).
 *
 * `--version` is answered here, before the CLI is loaded: the CLI writes
 * through `node:fs` (`runtime/write.ts`), and loading `node:fs` alone costs
 * a compiled binary about a third of what an empty one takes to start.
 * `runCli` answers `--version` the same way for callers in-process.
 */
import { VERSION } from "./version.ts";

const args = process.argv.slice(2);
if (args[0] === "--version" || args[0] === "-v") {
  console.log(VERSION);
} else {
  Promise.all([import("./cli/run_cli.ts"), import("./cli/shared/process_deps.ts")])
    .then(([{ runCli }, { processDeps }]) => runCli(args, processDeps()))
    .then((code) => {
      process.exitCode = code;
    });
}
