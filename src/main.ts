/**
 * The entry point: the only place that sets the exit code. Everything below
 * throws or returns one. (No top-level await: `bun build --bytecode` emits
 * CommonJS, where it is not allowed.)
 */
import { processDeps } from "./cli/shared/process_deps.ts";
import { runCli } from "./cli/run_cli.ts";

runCli(process.argv.slice(2), processDeps()).then((code) => {
  process.exitCode = code;
});
