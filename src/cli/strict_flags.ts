import type { ArgsDef } from "citty";
import { UsageError } from "./errors.ts";

/**
 * Refuses a flag the command does not define — citty would silently ignore
 * it, and a typo like `--acount` must not submit to the default account.
 */
export function assertKnownFlags(command: string, rawArgs: readonly string[], args: ArgsDef): void {
  const known = new Set<string>(["help", "h", "version", "v"]);
  const takesValue = new Set<string>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    known.add(name);
    known.add(kebab(name));
    const aliases = "alias" in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    aliases.forEach((a) => known.add(a));
    if (def.type === "string" || def.type === "enum") [name, kebab(name), ...aliases].forEach((n) => takesValue.add(n));
    if (def.type === "boolean") known.add(`no-${kebab(name)}`);
  }
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === "--") break;
    if (!raw.startsWith("-") || raw === "-" || /^-\d/.test(raw)) continue;
    const name = raw.replace(/^--?/, "").split("=")[0] ?? "";
    if (!known.has(name)) {
      throw new UsageError(
        `Unknown option "${raw.split("=")[0]}" for "outerloop ${command}": see "outerloop ${command} --help"`,
      );
    }
    if (takesValue.has(name) && !raw.includes("=")) i++; // its value may itself start with "-"
  }
}

/**
 * Every value of a repeatable string flag, in order (`--x A --x B` or
 * `--x=A`): citty keeps only the last.
 */
export function repeatedFlag(rawArgs: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === "--") break;
    if (raw === `--${name}`) {
      const next = rawArgs[i + 1];
      if (next !== undefined) values.push(next);
      i++;
    } else if (raw.startsWith(`--${name}=`)) {
      values.push(raw.slice(name.length + 3));
    }
  }
  return values;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
