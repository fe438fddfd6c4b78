import { type CommandDef, defineCommand } from "citty";
import type { Env } from "./shared/io.ts";
import { type Args, argsView, type CheckedArgs, type ParsedArgs } from "./flags.ts";
import type { CliDeps } from "./shared/io.ts";

/**
 * A command (a leaf: it never imports another command): citty's declaration
 * — `meta` (its name and one line for the root help's peers) and `args`
 * (positionals and flags, in `--help` order) — with the lines `--help` adds,
 * and the two steps it runs: parse (args + env → a typed options object,
 * tested on its own) and execute (options + deps → exit code).
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

/** What `runCli` hands citty's `runCommand` as `data`: the run step's deps, and the checked command line. */
export interface LeafData {
  readonly deps: CliDeps;
  readonly checked: CheckedArgs;
  /** Filled once the command's options are parsed: what an error's `--json` reads (cli/shared/error_json.ts). */
  readonly parsed: { options?: unknown };
}

/**
 * Declares a command with citty's `defineCommand`. Its citty `run` reads
 * citty's parse of the checked command line through `argsView`, then
 * parses and executes with the deps in `data`; it resolves to the exit code
 * (citty's `runCommand` returns it as `result`).
 */
export function defineLeaf<O>(spec: Omit<CliCommand<O>, "run">): CliCommand<O> {
  return defineCommand({
    ...spec,
    run(ctx) {
      const { deps, checked, parsed } = ctx.data as LeafData;
      const options = spec.parse(argsView(ctx.args, spec.args, checked), deps.env);
      parsed.options = options;
      return spec.execute(options, deps);
    },
  }) as CliCommand<O>;
}
