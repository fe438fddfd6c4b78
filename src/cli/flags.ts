/**
 * The command line's one parser, ours alone: an argument library under a
 * strict check of our own is two parsers that must agree on every line, and
 * the library would add nothing the check does not do (the help is ours, the
 * subcommands are routed by `run_cli.ts`) but start-up time, which every
 * poll and wake pays. So no parsing library is loaded at all.
 *
 * The rules, for every command:
 *  - `--name value` and `--name=value` give a flag its value; `--` ends the
 *    flags (everything after it is positional); `-h` / `--help` asks for the
 *    help and wins over any problem on the line.
 *  - A value flag never takes a flag as its value: the argument after
 *    `--output` is not its value when it starts with `--` (another flag, or
 *    `--`): "--output needs a value", so `--output --dry-run` cannot make
 *    `--dry-run` a file name and submit for real. Nor is `-h`, which stays
 *    the help. A value that starts with `--` is written inline:
 *    `--extra=--exclusive` is the literal value.
 *  - A value may start with a single dash (`--script-arg -v`, a negative
 *    number, `-` for stdin): no command has a short flag but `-h`, so such a
 *    word cannot be a mistyped flag of ours.
 *  - Every flag is given once, booleans included; only a `repeatable` string
 *    flag may come again (each value kept, in order).
 *  - An unknown flag, a value given to a boolean (`--json=yes`), a missing
 *    or extra positional argument and a missing required flag are refused.
 * Every refusal is one line naming the flag (a `BadInputError`, exit 2).
 *
 * @module
 */
import { BadInputError } from "../errors.ts";

/** One of a command's arguments, as its `args` declare it: read here, shown by `help.ts`. */
export type ArgDef = StringFlag | BooleanFlag | Positional;

/** A flag that takes a value (`--x V` or `--x=V`). */
export interface StringFlag {
  readonly type: "string";
  /** One line for `--help`. */
  readonly description: string;
  /** What the value is, for `--help` and the refusals (`FILE`, `N`). */
  readonly valueHint?: string;
  /** The command cannot run without it: its absence is refused. */
  readonly required?: boolean;
  /** May be given several times; every value is kept in order. Otherwise a second value is refused. */
  readonly repeatable?: boolean;
  /** The environment variable that supplies the default, named in `--help`. */
  readonly env?: string;
  /** The default, as `--help` shows it (the parse step applies it: an absent flag stays visible there). */
  readonly defaultText?: string;
}

/** A flag that takes no value. */
export interface BooleanFlag {
  readonly type: "boolean";
  readonly description: string;
}

/** A positional argument: always required, in declaration order; its key is its name in `--help` (`RUN_DIR`). */
export interface Positional {
  readonly type: "positional";
  readonly description: string;
}

/** A command's `args`, by kebab-case flag name (without the dashes) or positional name, in `--help` order. */
export type Args = Readonly<Record<string, ArgDef>>;

/** What the command line said, checked against the command's args. */
export interface ParsedArgs {
  /** `--help` or `-h` was given: print the help, nothing else. */
  readonly help: boolean;
  /** The arguments as given (after the command name). */
  readonly raw: readonly string[];
  /** The positional arguments, by their names. */
  readonly positional: Readonly<Record<string, string>>;
  /** A string flag's value, or undefined when absent. */
  value(flag: string): string | undefined;
  /** Every value of a repeatable flag, in order. */
  values(flag: string): readonly string[];
  /** Whether a boolean flag was given. */
  on(flag: string): boolean;
}

/** Whether `arg`, standing where a flag's value would, is a flag instead: `--x`, `--` or `-h`. */
function isFlag(arg: string): boolean {
  return arg.startsWith("--") || arg === "-h";
}

/** Reads `rawArgs` (the words after the command's name) against the command's `args`, by the rules above. */
export function parseArgs(command: string, args: Args, rawArgs: readonly string[]): ParsedArgs {
  const strings = new Map<string, string[]>();
  const booleans = new Set<string>();
  const positionals: string[] = [];
  let help = false;
  let problem: string | null = null;
  const refuse = (why: string) => (problem ??= why);
  const see = `see "outerloop ${command} --help"`;

  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === "--") {
      positionals.push(...rawArgs.slice(i + 1));
      break;
    }
    if (raw === "-h" || raw === "--help") {
      help = true;
      continue;
    }
    if (!raw.startsWith("-") || raw === "-" || /^-\d/.test(raw)) {
      positionals.push(raw);
      continue;
    }
    const eq = raw.indexOf("=");
    const name = raw.startsWith("--") ? raw.slice(2, eq < 0 ? undefined : eq) : "";
    const def = Object.hasOwn(args, name) ? args[name] : undefined;
    if (def === undefined || def.type === "positional") {
      refuse(`Unknown option "${eq < 0 ? raw : raw.slice(0, eq)}" for "outerloop ${command}": ${see}`);
      continue;
    }
    if (def.type === "boolean") {
      if (eq >= 0) refuse(`--${name} takes no value (got ${JSON.stringify(raw.slice(eq + 1))})`);
      else if (booleans.has(name)) refuse(`--${name} is given twice: give it once`);
      booleans.add(name);
      continue;
    }
    let value: string;
    if (eq >= 0) value = raw.slice(eq + 1);
    else if (i + 1 < rawArgs.length && !isFlag(rawArgs[i + 1]!)) value = rawArgs[++i]!;
    else {
      const inline = i + 1 < rawArgs.length ? `; a value starting with -- goes inline: --${name}=VALUE` : "";
      refuse(`--${name} needs a value${def.valueHint ? ` (${def.valueHint})` : ""}${inline}`);
      continue;
    }
    const seen = strings.get(name) ?? [];
    if (seen.length > 0 && !def.repeatable) {
      refuse(`--${name} is given twice (${JSON.stringify(seen[0])} and ${JSON.stringify(value)}): give it once`);
    }
    strings.set(name, [...seen, value]);
  }

  const wanted = Object.keys(args).filter((k) => args[k]!.type === "positional");
  if (positionals.length > wanted.length) {
    const extra = positionals[wanted.length]!;
    const takes = wanted.length === 0 ? "takes no arguments" : `takes ${wanted.join(" ")}`;
    refuse(`Unexpected argument ${JSON.stringify(extra)}: "outerloop ${command}" ${takes}; ${see}`);
  } else if (positionals.length < wanted.length) {
    refuse(`Missing ${wanted[positionals.length]!}: ${see}`);
  }
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "string" && def.required && !strings.has(name)) {
      refuse(`Missing --${name}${def.valueHint ? ` ${def.valueHint}` : ""}: ${see}`);
    }
  }
  if (problem !== null && !help) throw new BadInputError(problem);

  const positional = Object.fromEntries(wanted.map((name, i) => [name, positionals[i] ?? ""]));
  const is = (name: string, type: ArgDef["type"]) => Object.hasOwn(args, name) && args[name]!.type === type;
  return {
    help,
    raw: [...rawArgs],
    positional,
    value: (name) => (is(name, "string") ? strings.get(name)?.at(-1) : undefined),
    values: (name) => (is(name, "string") ? strings.get(name) ?? [] : []),
    on: (name) => is(name, "boolean") && booleans.has(name),
  };
}
