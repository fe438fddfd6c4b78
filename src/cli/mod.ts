/**
 * The command line: argv + env → a typed options object → one domain call →
 * what it prints, and an exit code (`src/main.ts` sets it; nothing here
 * exits). Every command is declared in `commands/` (`defineLeaf`: `meta`,
 * `args`, parse, execute), one file each, loaded on first use (`app.ts`);
 * what commands share is in `shared/`, and no command imports another. One
 * parser reads every command line (`flags.ts`: unknown, repeated and
 * malformed flags are exit-2 refusals; no parsing library), plain `--help`
 * (`help.ts`), the exit codes and the injected deps (`run_cli.ts`,
 * `command.ts`).
 *
 * @module
 */
