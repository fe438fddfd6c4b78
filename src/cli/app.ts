import type { CommandDef } from "citty";
import { VERSION } from "../version.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = CommandDef<any>;

/**
 * Every subcommand, by name, loaded on first use: `--version` and a wake's
 * `resume` should not pay for evaluating every other command's modules
 * (about half of the binary's cold start).
 */
export const subCommands: Record<string, () => Promise<AnyCommand>> = {
  submit: () => import("./submit.ts").then((m) => m.submitCommand),
  status: () => import("./status.ts").then((m) => m.statusCommand),
  cancel: () => import("./cancel.ts").then((m) => m.cancelCommand),
  jobs: () => import("./jobs.ts").then((m) => m.jobsCommand),
  measure: () => import("./measure.ts").then((m) => m.measureCommand),
  resume: () => import("./resume.ts").then((m) => m.resumeCommand),
  show: () => import("./show.ts").then((m) => m.showCommand),
};

/** The root command, for usage text. */
export const rootCommand: CommandDef = {
  meta: {
    name: "outerloop",
    version: VERSION,
    description: "Measure a benchmark on a baseline and a candidate commit as batch jobs, park, wake, decide.",
  },
  subCommands,
};
