import type { Args } from "./flags.ts";

/**
 * `--help` text, from a command's `meta` and `args`: plain, never coloured,
 * so it reads the same in a terminal, a pipe, a file and a Slurm log (and
 * `NO_COLOR` has nothing to turn off); the root help lists the commands from
 * `app.ts`'s table, loading none of them.
 */

const WIDTH = 28;

function row(left: string, right: string): string {
  return left.length + 2 > WIDTH ? `  ${left}\n${" ".repeat(WIDTH)}${right}` : `  ${left.padEnd(WIDTH - 2)}${right}`;
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
  if (c.examples?.length) lines.push("", "Examples:", ...c.examples.map((e) => `  ${e}`));
  return lines.join("\n") + "\n";
}

/** The help of the program: every command with its summary. */
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
    "Exit codes: 0 accepted / success, 10 rejected, 11 inconclusive, 75 parked (a wake job will resume),",
    "3 an evaluation failed, 4 the scheduler refused or was unreachable, 2 bad input, 1 internal error.",
    "",
  ].join("\n");
}
