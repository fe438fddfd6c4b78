/**
 * The command line: argv + env → a typed options object → one domain call →
 * what it prints, and an exit code (`src/main.ts` sets it; nothing here
 * exits). On citty: every command is declared in `commands/` with its
 * `defineCommand` (`defineLeaf`: `meta`, `args`, parse, execute), one file
 * each, loaded on first use through the root's lazy `subCommands`
 * (`app.ts`); what commands share is in `shared/`, and no command imports
 * another. citty's parser reads every command line, held to our rules
 * (`flags.ts`: unknown, repeated and malformed flags are exit-2 refusals);
 * plain `--help` of our own (`help.ts`, its exit codes from
 * `exit_codes.ts`'s table), the injected deps (`run_cli.ts`, `command.ts`).
 *
 * @module
 */
