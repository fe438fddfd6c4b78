import type { CommandSpec } from "./flags.ts";

/**
 * `--help` text: plain, never coloured, so it reads the same in a terminal,
 * a pipe, a file and a Slurm log (and `NO_COLOR` has nothing to turn off).
 */

const WIDTH = 28;

function row(left: string, right: string): string {
  return left.length + 2 > WIDTH ? `  ${left}\n${" ".repeat(WIDTH)}${right}` : `  ${left.padEnd(WIDTH - 2)}${right}`;
}

/** The help of one command. */
export function commandHelp(spec: CommandSpec): string {
  const flags = Object.entries(spec.flags);
  const required = flags.filter(([, d]) => d.required).map(([n, d]) => `--${n}${d.hint ? ` ${d.hint}` : ""}`);
  const optional = flags.some(([, d]) => !d.required) ? ["[options]"] : [];
  const usage = ["outerloop", spec.name, ...(spec.positionals ?? []).map((p) => p.name), ...required, ...optional];
  const lines = [`outerloop ${spec.name}: ${spec.summary}`, "", `Usage: ${usage.join(" ")}`];
  if (spec.details?.length) lines.push("", ...spec.details);
  if (spec.positionals?.length) {
    lines.push("", "Arguments:", ...spec.positionals.map((p) => row(p.name, p.description)));
  }
  lines.push("", "Options:");
  for (const [name, d] of flags) {
    const notes = [
      d.required ? "required" : "",
      d.repeatable ? "repeatable" : "",
      d.env ? `env ${d.env}` : "",
      d.defaultText ? `default ${d.defaultText}` : "",
    ].filter(Boolean);
    const left = `--${name}${d.hint ? ` ${d.hint}` : ""}`;
    lines.push(row(left, d.description + (notes.length ? ` (${notes.join("; ")})` : "")));
  }
  lines.push(row("-h, --help", "Show this help"));
  if (spec.examples?.length) lines.push("", "Examples:", ...spec.examples.map((e) => `  ${e}`));
  return lines.join("\n") + "\n";
}

/** The help of the program: every command with its summary. */
export function rootHelp(version: string, commands: readonly { name: string; summary: string }[]): string {
  return [
    `outerloop ${version}: measure a benchmark on a baseline and a candidate commit as batch jobs, park, wake, decide.`,
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
