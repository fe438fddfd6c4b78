/**
 * A command line read by citty's parser, the only one, and held to our rules
 * by checks on what it returns and on the words it was given.
 *
 * The rules, for every command:
 *  - `--name value` and `--name=value` give a flag its value; `--` ends the
 *    flags (everything after it is positional); `-h` / `--help` before `--`
 *    asks for the help and wins over any problem on the line.
 *  - A value flag never takes a flag as its value: the argument after
 *    `--output` is not its value when it starts with `--` (another flag, or
 *    `--`): "--output needs a value", so `--output --dry-run` cannot make
 *    `--dry-run` a file name and submit for real. A value that starts with
 *    `--` is written inline: `--extra=--exclusive` is the literal value.
 *  - A value may start with a single dash (`--script-arg -v`, a negative
 *    number, `-` for stdin). Elsewhere a word with one dash is a short option,
 *    and no command has one but `-h`: refused (an argument that starts with a
 *    dash goes after `--`).
 *  - Every flag is given once, booleans included; only a `repeatable` string
 *    flag may come again (each value kept, in order).
 *  - An unknown flag, a value given to a boolean (`--json=yes`), a missing
 *    or extra positional argument and a missing required flag are refused.
 * Every refusal is one line naming the flag (a `BadInputError`, exit 2).
 *
 * What citty 0.2's `parseArgs` returns (it hands node:util's `parseArgs`,
 * not strict, the flags' types and nothing else), and so where each rule is
 * checked. On its result: the positionals (`_`, and each by its name), the
 * values, the booleans, a missing required flag, and the short options (a
 * word with one dash that is no value: a one-letter key per letter, `-jx`
 * as j and x, `-5` as 5). On the words it was given, what it loses: it
 * takes the word after a value flag whatever it is (`--output --dry-run` is
 * output "--dry-run"; at the end, ""), keeps the last value of a flag given
 * twice and one `true` for a boolean given twice, turns a boolean's inline
 * value into true or false, reads `--no-x` as x = false and `--dryRun` as
 * `--dry-run`, keeps an unknown `--x` as one more key among its aliases, and
 * overwrites a positional's name given as a flag with the positional. So
 * the words before `--` that start with `--` are read as the flags written
 * (`flagWords`; by the rules none of them is a value), and a repeatable
 * flag's earlier values with them, each its inline part or the word after
 * it: the last must be citty's value. `-h` / `--help` is looked for among
 * the words, since citty may take `-h` as a value.
 *
 * @module
 */
import {
  type ArgsDef,
  type BooleanArgDef,
  parseArgs as cittyParseArgs,
  type PositionalArgDef,
  type StringArgDef,
} from "citty";
import { BadInputError } from "../errors.ts";
import { closestKey } from "../text/did_you_mean.ts";

/** One of a command's arguments, as citty's `args` declare it: read here, shown by `help.ts`. */
export type ArgDef = StringFlag | BooleanFlag | Positional;

/**
 * A flag that takes a value (`--x V` or `--x=V`). citty's `default` is not
 * used: a flag's absence must stay visible to the parse step (an
 * environment variable may fill it).
 */
export type StringFlag = Omit<StringArgDef, "default" | "alias"> & {
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
};

/** A flag that takes no value. */
export type BooleanFlag = Omit<BooleanArgDef, "default" | "alias" | "negativeDescription"> & {
  readonly type: "boolean";
  readonly description: string;
};

/** A positional argument: always required, in declaration order; its key is its name in `--help` (`RUN_DIR`). */
export type Positional = Omit<PositionalArgDef, "default" | "required"> & {
  readonly type: "positional";
  readonly description: string;
};

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

/** A word before `--` that starts with `--`: a flag as written, its name, and its inline value if any. */
interface FlagWord {
  readonly index: number;
  readonly word: string;
  readonly name: string;
  readonly inline: string | undefined;
}

/** The words before `--` (all of them when there is none). */
function beforeEnd(rawArgs: readonly string[]): readonly string[] {
  const end = rawArgs.indexOf("--");
  return end < 0 ? rawArgs : rawArgs.slice(0, end);
}

/** The flags written on the line: the words before `--` that start with `--` (none of them can be a value). */
function flagWords(rawArgs: readonly string[]): FlagWord[] {
  return beforeEnd(rawArgs).flatMap((word, index) => {
    if (!word.startsWith("--")) return [];
    const eq = word.indexOf("=");
    return [{
      index,
      word,
      name: word.slice(2, eq < 0 ? undefined : eq),
      inline: eq < 0 ? undefined : word.slice(eq + 1),
    }];
  });
}

/**
 * The args as citty is given them: their types, nothing it would refuse by
 * itself (a missing positional or required flag), since the refusals are
 * ours, in our words and in the line's order.
 */
function forCitty(args: Args): ArgsDef {
  return Object.fromEntries(
    Object.entries(args).map(([name, d]) => [name, { type: d.type, description: d.description, required: false }]),
  );
}

/** Reads `rawArgs` (the words after the command's name) with citty's parser, then holds it to the rules above. */
export function parseArgs(command: string, args: Args, rawArgs: readonly string[]): ParsedArgs {
  const help = beforeEnd(rawArgs).some((w) => w === "-h" || w === "--help");
  const parsed: Readonly<Record<string, unknown>> & { readonly _: readonly string[] } = help
    ? { _: [] }
    // copied out of citty's Proxy, whose every miss (a flag not given) re-cases the name twice to look again
    : { ...cittyParseArgs([...rawArgs], forCitty(args)) };
  const words = flagWords(rawArgs);
  if (!help) {
    const problem = problemOf(command, args, rawArgs, words, parsed);
    if (problem !== null) throw new BadInputError(problem);
  }
  const declared = (name: string, type: ArgDef["type"]) => Object.hasOwn(args, name) && args[name]!.type === type;
  const value = (name: string) => {
    const v = declared(name, "string") ? parsed[name] : undefined;
    return typeof v === "string" ? v : undefined;
  };
  const positional = Object.fromEntries(
    Object.keys(args).filter((n) => declared(n, "positional")).map((n) => [n, String(parsed[n] ?? "")]),
  );
  return {
    help,
    raw: [...rawArgs],
    positional,
    value,
    values: (name) => {
      if (!declared(name, "string")) return [];
      const last = value(name);
      if (!(args[name] as StringFlag).repeatable) return last === undefined ? [] : [last];
      const all = words.filter((w) => w.name === name).map((w) => w.inline ?? rawArgs[w.index + 1]!);
      if (all.at(-1) !== last) {
        throw new Error(
          `--${name}: citty read ${JSON.stringify(last)}, the line's last value is ${JSON.stringify(all)}`,
        );
      }
      return all;
    },
    // citty reads a flag `--no-x` as x = false
    on: (name) =>
      declared(name, "boolean") && parsed[name.startsWith("no-") ? name.slice(3) : name] === !name.startsWith("no-"),
  };
}

/** The first thing wrong with the line, in line order, then its positionals, then its required flags; null if none. */
function problemOf(
  command: string,
  args: Args,
  rawArgs: readonly string[],
  words: readonly FlagWord[],
  parsed: Readonly<Record<string, unknown>> & { readonly _: readonly string[] },
): string | null {
  const see = `see "outerloop ${command} --help"`;
  const seen = new Map<string, string[]>();
  for (const w of words) {
    const def = Object.hasOwn(args, w.name) ? args[w.name]! : undefined;
    const option = w.inline === undefined ? w.word : w.word.slice(0, w.word.indexOf("="));
    if (def === undefined || def.type === "positional") {
      const flags = Object.keys(args).filter((k) => args[k]!.type !== "positional");
      const near = closestKey(option.replace(/^--/, ""), flags);
      const meant = near === null ? "" : `did you mean "--${near}"? `;
      return `Unknown option "${option}" for "outerloop ${command}": ${meant}${see}`;
    }
    const before = seen.get(w.name) ?? [];
    if (def.type === "boolean") {
      if (w.inline !== undefined) return `--${w.name} takes no value (got ${JSON.stringify(w.inline)})`;
      if (before.length > 0) return `--${w.name} is given twice: give it once`;
      seen.set(w.name, [""]);
      continue;
    }
    const next = rawArgs[w.index + 1];
    if (w.inline === undefined && (next === undefined || next.startsWith("--"))) {
      const inline = next === undefined ? "" : `; a value starting with -- goes inline: --${w.name}=VALUE`;
      return `--${w.name} needs a value${def.valueHint ? ` (${def.valueHint})` : ""}${inline}`;
    }
    const value = w.inline ?? next!;
    if (before.length > 0 && !def.repeatable) {
      return `--${w.name} is given twice (${JSON.stringify(before[0])} and ${JSON.stringify(value)}): give it once`;
    }
    seen.set(w.name, [...before, value]);
  }
  // citty reads a word with one dash that is no value as short options, each a one-letter key; none is ours
  const short = Object.keys(parsed).find((key) => key.length === 1 && key !== "_" && !Object.hasOwn(args, key));
  if (short !== undefined) {
    // the message names the word the letter came from
    const word = beforeEnd(rawArgs).find((w) => /^-[^-]/.test(w) && w.includes(short)) ?? `-${short}`;
    const dashed = /^-\d/.test(word)
      ? `; an argument that starts with - goes after --: outerloop ${command} -- ${word}`
      : "";
    return `Unknown option "${word}" for "outerloop ${command}": ${see}${dashed}`;
  }
  const wanted = Object.keys(args).filter((k) => args[k]!.type === "positional");
  if (parsed._.length > wanted.length) {
    const extra = parsed._[wanted.length]!;
    const takes = wanted.length === 0 ? "takes no arguments" : `takes ${wanted.join(" ")}`;
    return `Unexpected argument ${JSON.stringify(extra)}: "outerloop ${command}" ${takes}; ${see}`;
  }
  if (parsed._.length < wanted.length) return `Missing ${wanted[parsed._.length]!}: ${see}`;
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "string" && def.required && parsed[name] === undefined) {
      return `Missing --${name}${def.valueHint ? ` ${def.valueHint}` : ""}: ${see}`;
    }
  }
  return null;
}
