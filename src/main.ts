/**
 * The entry point: the only place that exits. Everything below throws or
 * returns an exit code.
 */
import { runCli } from "./cli/run_cli.ts";

process.exitCode = await runCli(process.argv.slice(2));
