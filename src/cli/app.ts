import type { CommandDef } from "citty";
import { VERSION } from "../version.ts";
import { cancelCommand } from "./cancel.ts";
import { jobsCommand } from "./jobs.ts";
import { statusCommand } from "./status.ts";
import { submitCommand } from "./submit.ts";

/** Every subcommand, by name. */
// deno-lint-ignore no-explicit-any
export const subCommands: Record<string, CommandDef<any>> = {
  submit: submitCommand,
  status: statusCommand,
  cancel: cancelCommand,
  jobs: jobsCommand,
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
