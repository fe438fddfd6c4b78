import type { BooleanArgDef, PositionalArgDef, StringArgDef } from "citty";
import { parseArgs as cittyParse } from "citty";
import { BadInputError } from "../errors.ts";

/**
 * A command's arguments, declared as citty's `args` (`type`, `description`,
 * `valueHint`, `required`), with what `--help` and the strict check need
 * beside them. citty's own `default` is never used: a flag's absence must
 * stay visible to the parse step (an environment variable may fill it).
 */
export type ArgDef = StringFlag | BooleanFlag | Positional;

/** A flag that takes a value (`--x V` or `--x=V`). */
export type StringFlag = StringArgDef & {
  readonly type: "string";
  /** One line for `--help`. */
  readonly description: string;
  /** May be given several times; every value is kept in order. Otherwise a second value is refused. */
  readonly repeatable?: boolean;
  /** The environment variable that supplies the default, named in `--help`. */
  readonly env?: string;
  /** The default, as `--help` shows it. */
  readonly defaultText?: string;
};

/** A flag that takes no value. */
export type BooleanFlag = BooleanArgDef & { readonly type: "boolean"; readonly description: string };

/** A positional argument: always required, in declaration order; its key is its name in `--help` (`RUN_DIR`). */
export type Positional = PositionalArgDef & { readonly type: "positional"; readonly description: string };

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

/**
 * The command line after the strict check: `argv` is the same arguments in a
 * form citty's parser reads exactly as the check did (every value inline as
 * `--x=V`, the positionals after `--`).
 */
export interface CheckedArgs {
  readonly help: boolean;
  readonly raw: readonly string[];
  readonly argv: readonly string[];
  /** Every value of each repeatable flag, in order: citty keeps only the last. */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
  /** The boolean flags given: read from here, since citty takes `--no-x` for x = false, not for a flag `no-x`. */
  readonly booleans: ReadonlySet<string>;
}

/**
 * Reads `rawArgs` strictly against `args`, where citty passes anything.
 * Everything a careless or scripted command line can get wrong is refused
 * with one line naming the flag: an unknown flag (a typo like `--acount`
 * must not submit to the default account; citty would take it as an arg), a
 * flag given twice (which would silently take the last), a value missing at
 * the end (citty: ""), a value given to a boolean (citty: true), a missing
 * or extra positional argument, a missing required flag. `--` ends the
 * flags; a value may itself start with `-`. `--help` wins over any problem.
 */
export function checkArgs(command: string, args: Args, rawArgs: readonly string[]): CheckedArgs {
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
      booleans.add(name);
      continue;
    }
    let value: string;
    if (eq >= 0) value = raw.slice(eq + 1);
    else if (i + 1 < rawArgs.length) value = rawArgs[++i]!; // a value may itself start with "-"
    else {
      refuse(`--${name} needs a value${def.valueHint ? ` (${def.valueHint})` : ""}`);
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

  const argv = [
    ...[...strings].flatMap(([name, values]) => values.map((v) => `--${name}=${v}`)),
    ...[...booleans].map((name) => `--${name}`),
    "--",
    ...positionals,
  ];
  const repeated = new Map([...strings].filter(([name]) => (args[name] as StringFlag).repeatable));
  return { help, raw: [...rawArgs], argv, repeated, booleans };
}

/** The typed view of citty's parse of a checked command line. */
export function argsView(parsed: Readonly<Record<string, unknown>>, args: Args, checked: CheckedArgs): ParsedArgs {
  const positional: Record<string, string> = {};
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") positional[name] = String(parsed[name] ?? "");
  }
  const flag = (name: string, type: ArgDef["type"]) => Object.hasOwn(args, name) && args[name]!.type === type;
  return {
    help: checked.help,
    raw: checked.raw,
    positional,
    value: (name) => {
      const v = flag(name, "string") ? parsed[name] : undefined;
      return typeof v === "string" ? v : undefined;
    },
    values: (name) => {
      const v = flag(name, "string") ? parsed[name] : undefined;
      return checked.repeated.get(name) ?? (typeof v === "string" ? [v] : []);
    },
    on: (name) => flag(name, "boolean") && checked.booleans.has(name),
  };
}

/** Checks `rawArgs` (`checkArgs`), then parses them with citty: the view a command's parse step reads. */
export function parseArgs(command: string, args: Args, rawArgs: readonly string[]): ParsedArgs {
  const checked = checkArgs(command, args, rawArgs);
  if (checked.help) return argsView({ _: [] }, args, checked);
  return argsView(cittyParse([...checked.argv], args), args, checked);
}
