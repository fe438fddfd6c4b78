import type { Env } from "./shared/io.ts";
import type { Args, ParsedArgs } from "./flags.ts";
import type { CliDeps } from "./shared/io.ts";

/**
 * A command (a leaf: it never imports another command): its `meta` (its
 * name and one line for its help), its `args` (positionals and flags, in
 * `--help` order, read by `flags.ts`) with the lines `--help` adds, and the
 * two steps it runs: parse (args + env → a typed options object, tested on
 * its own) and execute (options + deps → exit code).
 */
export interface CliCommand<O> {
  readonly meta: { readonly name: string; readonly description: string };
  readonly args: Args;
  /** More lines for `--help`, after the usage. */
  readonly details?: readonly string[];
  readonly examples?: readonly string[];
  parse(args: ParsedArgs, env: Env): O;
  execute(options: O, deps: CliDeps): Promise<number>;
}

/**
 * Declares a command: `O`, its options type, ties its parse step to its
 * execute step. `run_cli.ts` parses the command line against `args`, then
 * runs parse and execute.
 */
export function defineLeaf<O>(spec: CliCommand<O>): CliCommand<O> {
  return spec;
}
