import type { CommandDef } from "citty";
import { VERSION } from "../version.ts";
import { cancelCommand } from "./cancel.ts";
import { jobsCommand } from "./jobs.ts";
import { measureCommand } from "./measure.ts";
import { resumeCommand } from "./resume.ts";
import { showCommand } from "./show.ts";
import { statusCommand } from "./status.ts";
import { submitCommand } from "./submit.ts";

/** Every subcommand, by name. */
// deno-lint-ignore no-explicit-any
export const subCommands: Record<string, CommandDef<any>> = {
  submit: submitCommand,
  status: statusCommand,
  cancel: cancelCommand,
  jobs: jobsCommand,
  measure: measureCommand,
  resume: resumeCommand,
  show: showCommand,
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
