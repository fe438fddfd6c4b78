/**
 * The command line: argv + env → a typed options object → one domain call →
 * what it prints, and an exit code (`src/main.ts` sets it; nothing here
 * exits). Every command is declared with citty (`defineCommand`: `meta`,
 * `args`) in `commands/`, one file each, loaded on first use through the
 * root's `subCommands` (`app.ts`); what commands share is in `shared/`, and
 * no command imports another. Layered on citty: a strict check of the command
 * line before its parser (`flags.ts`: unknown, repeated and malformed flags
 * are exit-2 refusals), plain `--help` (`help.ts`), the exit codes and the
 * injected deps (`run_cli.ts`, `command.ts`).
 *
 * @module
 */
export { runCli } from "./run_cli.ts";
export { type CliCommand, defineLeaf } from "./command.ts";
export type { CliDeps, CliIo } from "./shared/io.ts";
export { processDeps } from "./shared/process_deps.ts";
