/**
 * The entry point: the only place that sets the exit code. Everything below
 * throws or returns one. It loads only the command line's routing and the
 * process's deps; a command's modules are loaded when it runs (`cli/app.ts`),
 * each in a chunk of its own in the compiled binary (`scripts/build.sh`).
 */
import { processDeps } from "./cli/shared/process_deps.ts";
import { runCli } from "./cli/run_cli.ts";

runCli(process.argv.slice(2), processDeps()).then((code) => {
  process.exitCode = code;
});
