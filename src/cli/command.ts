import { type CommandDef, defineCommand } from "citty";
import type { Env } from "./shared/io.ts";
import type { Args, ParsedArgs } from "./flags.ts";
import type { CliDeps } from "./shared/io.ts";

/**
 * A command (a leaf: it never imports another command), a citty command
 * declaration: its `meta` (its name and one line for its help) and its
 * `args` (positionals and flags, in `--help` order, read by `flags.ts`), with
 * the lines `--help` adds, and the two steps it runs: parse (args + env → a
 * typed options object, tested on its own) and execute (options + deps →
 * exit code). It has no citty `run`: `run_cli.ts` runs the two steps itself
 * (see there why).
 */
export interface CliCommand<O> extends CommandDef<Args> {
  readonly meta: { readonly name: string; readonly description: string };
  readonly args: Args;
  /** More lines for `--help`, after the usage. */
  readonly details?: readonly string[];
  readonly examples?: readonly string[];
  parse(args: ParsedArgs, env: Env): O;
  execute(options: O, deps: CliDeps): Promise<number>;
}

/**
 * Declares a command with citty's `defineCommand`: `O`, its options type,
 * ties its parse step to its execute step. `run_cli.ts` parses the command
 * line against `args` (`flags.ts`, on citty's parser), then runs parse and
 * execute.
 */
export function defineLeaf<O>(spec: CliCommand<O>): CliCommand<O> {
  return defineCommand<Args>(spec) as CliCommand<O>;
}
