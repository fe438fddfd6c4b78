import { EXIT_CODE_TABLE, exitCodesOf, exitMeaning } from "../exit_codes.ts";
import type { Args } from "./flags.ts";

/**
 * `--help` text, ours rather than citty's `renderUsage`: plain, never
 * coloured, so it reads the same in a terminal, a pipe, a file and a Slurm
 * log (and `NO_COLOR` has nothing to turn off). A command's help is read from
 * its `meta` and `args`; the root help lists the commands from `app.ts`'s
 * table, loading none of them. Every help lists the exit codes it can give,
 * written from `exit_codes.ts`'s table.
 */

const WIDTH = 28;

function row(left: string, right: string, width = WIDTH): string {
  return left.length + 2 > width ? `  ${left}\n${" ".repeat(width)}${right}` : `  ${left.padEnd(width - 2)}${right}`;
}

/** What the help of one command reads. */
export interface HelpSource {
  readonly meta: { readonly name: string; readonly description: string };
  readonly args: Args;
  readonly details?: readonly string[];
  readonly examples?: readonly string[];
}

/** The help of one command. */
export function commandHelp(c: HelpSource): string {
  const all = Object.entries(c.args);
  const positionals = all.filter(([, d]) => d.type === "positional");
  const flags = all.filter(([, d]) => d.type !== "positional");
  const hint = (d: (typeof all)[number][1]) => d.type === "string" && d.valueHint ? ` ${d.valueHint}` : "";
  const required = flags.filter(([, d]) => d.type === "string" && d.required).map(([n, d]) => `--${n}${hint(d)}`);
  const optional = flags.some(([, d]) => !(d.type === "string" && d.required)) ? ["[options]"] : [];
  const usage = ["outerloop", c.meta.name, ...positionals.map(([n]) => n), ...required, ...optional];
  const lines = [`outerloop ${c.meta.name}: ${c.meta.description}`, "", `Usage: ${usage.join(" ")}`];
  if (c.details?.length) lines.push("", ...c.details);
  if (positionals.length) lines.push("", "Arguments:", ...positionals.map(([n, d]) => row(n, d.description)));
  lines.push("", "Options:");
  for (const [name, d] of flags) {
    const notes = d.type === "string"
      ? [
        d.required ? "required" : "",
        d.repeatable ? "repeatable" : "",
        d.env ? `env ${d.env}` : "",
        d.defaultText ? `default ${d.defaultText}` : "",
      ].filter(Boolean)
      : [];
    lines.push(row(`--${name}${hint(d)}`, d.description + (notes.length ? ` (${notes.join("; ")})` : "")));
  }
  lines.push(row("-h, --help", "Show this help"));
  lines.push("", ...commandExitCodes(c.meta.name));
  if (c.examples?.length) lines.push("", "Examples:", ...c.examples.map((e) => `  ${e}`));
  return lines.join("\n") + "\n";
}

/** A command's "Exit codes:" lines: every code it can exit with and what it means there, from the table. */
export function commandExitCodes(command: string): string[] {
  return ["Exit codes:", ...exitCodesOf(command).map(({ code, meaning }) => row(String(code), meaning.brief, 7))];
}

/**
 * The root help's "Exit codes:" lines: every code of the table, with what it
 * means to `measure`, `resume` and `wait`, then to `calibrate` and to the
 * other commands where that differs.
 */
export function rootExitCodes(): string[] {
  const lines = EXIT_CODE_TABLE.map((r) => {
    const to = (group: "calibrate" | "other", who: string) => {
      const m = exitMeaning(r, group);
      return m === null || m === r.decide ? "" : `; ${who}: ${m.brief}`;
    };
    return row(String(r.code), r.decide.brief + to("calibrate", "calibrate") + to("other", "other commands"), 7);
  });
  return ["Exit codes (of measure, resume and wait; `outerloop COMMAND --help` gives a command's own):", ...lines];
}

/** The help of the program: every command with its summary, then every exit code. */
export function rootHelp(
  meta: { readonly name: string; readonly version: string; readonly description: string },
  commands: readonly { readonly name: string; readonly summary: string }[],
): string {
  return [
    `${meta.name} ${meta.version}: ${meta.description}`,
    "",
    "Usage: outerloop COMMAND [options]",
    "",
    "Commands:",
    ...commands.map((c) => row(c.name, c.summary)),
    "",
    "Options:",
    row("-h, --help", "Show this help; `outerloop COMMAND --help` for a command's"),
    row("-v, --version", "Print the version"),
    "",
    ...rootExitCodes(),
    "",
  ].join("\n");
}
