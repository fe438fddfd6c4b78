import { BadInputError } from "../errors.ts";

/** One flag of a command, as `--help` describes it and `parseArgs` reads it. */
export interface FlagDef {
  /** A string flag takes a value (`--x V` or `--x=V`); a boolean flag takes none. */
  readonly kind: "string" | "boolean";
  /** One line for `--help`. */
  readonly description: string;
  /** The value's placeholder in `--help` (`DIR`, `REF`). */
  readonly hint?: string;
  /** Refused when absent. */
  readonly required?: boolean;
  /** May be given several times; every value is kept in order. Otherwise a second value is refused. */
  readonly repeatable?: boolean;
  /** The environment variable that supplies the default, named in `--help`. */
  readonly env?: string;
  /** The default, as `--help` shows it. */
  readonly defaultText?: string;
}

/** A command's name, words for `--help`, positional arguments and flags. */
export interface CommandSpec {
  readonly name: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** More lines for `--help`, after the usage. */
  readonly details?: readonly string[];
  /** Positional arguments, all required, in order. */
  readonly positionals?: readonly { readonly name: string; readonly description: string }[];
  /** By kebab-case name, without the dashes. */
  readonly flags: Readonly<Record<string, FlagDef>>;
  readonly examples?: readonly string[];
}

/** What the command line said, checked against the spec. */
export interface ParsedArgs {
  /** `--help` or `-h` was given: print the help, nothing else. */
  readonly help: boolean;
  /** The arguments as given (after the command name). */
  readonly raw: readonly string[];
  /** The positional arguments, by their spec names. */
  readonly positional: Readonly<Record<string, string>>;
  /** A string flag's value, or undefined when absent. */
  value(flag: string): string | undefined;
  /** Every value of a repeatable flag, in order. */
  values(flag: string): readonly string[];
  /** Whether a boolean flag was given. */
  on(flag: string): boolean;
}

/**
 * Reads `rawArgs` strictly against `spec`. Everything a careless or
 * scripted command line can get wrong is refused with one line naming the
 * flag: an unknown flag (a typo like `--acount` must not submit to the
 * default account), a flag given twice (which would silently take the last),
 * a value missing at the end, a value given to a boolean, a missing or extra
 * positional argument, a missing required flag. `--` ends the flags.
 */
export function parseArgs(spec: CommandSpec, rawArgs: readonly string[]): ParsedArgs {
  const strings = new Map<string, string[]>();
  const booleans = new Set<string>();
  const positionals: string[] = [];
  let help = false;
  let problem: string | null = null;
  const refuse = (why: string) => (problem ??= why);
  const see = `see "outerloop ${spec.name} --help"`;

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
    const def = Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    if (def === undefined) {
      refuse(`Unknown option "${eq < 0 ? raw : raw.slice(0, eq)}" for "outerloop ${spec.name}": ${see}`);
      continue;
    }
    if (def.kind === "boolean") {
      if (eq >= 0) refuse(`--${name} takes no value (got ${JSON.stringify(raw.slice(eq + 1))})`);
      booleans.add(name);
      continue;
    }
    let value: string;
    if (eq >= 0) value = raw.slice(eq + 1);
    else if (i + 1 < rawArgs.length) value = rawArgs[++i]!; // a value may itself start with "-"
    else {
      refuse(`--${name} needs a value${def.hint ? ` (${def.hint})` : ""}`);
      continue;
    }
    const seen = strings.get(name) ?? [];
    if (seen.length > 0 && !def.repeatable) {
      refuse(`--${name} is given twice (${JSON.stringify(seen[0])} and ${JSON.stringify(value)}): give it once`);
    }
    strings.set(name, [...seen, value]);
  }

  const wanted = spec.positionals ?? [];
  if (positionals.length > wanted.length) {
    const extra = positionals[wanted.length]!;
    const takes = wanted.length === 0 ? "takes no arguments" : `takes ${wanted.map((p) => p.name).join(" ")}`;
    refuse(`Unexpected argument ${JSON.stringify(extra)}: "outerloop ${spec.name}" ${takes}; ${see}`);
  } else if (positionals.length < wanted.length) {
    refuse(`Missing ${wanted[positionals.length]!.name}: ${see}`);
  }
  for (const [name, def] of Object.entries(spec.flags)) {
    if (def.required && !strings.has(name)) refuse(`Missing --${name}${def.hint ? ` ${def.hint}` : ""}: ${see}`);
  }
  if (problem !== null && !help) throw new BadInputError(problem);

  const positional: Record<string, string> = {};
  wanted.forEach((p, i) => (positional[p.name] = positionals[i] ?? ""));
  return {
    help,
    raw: [...rawArgs],
    positional,
    value: (flag) => strings.get(flag)?.[0],
    values: (flag) => strings.get(flag) ?? [],
    on: (flag) => booleans.has(flag),
  };
}
