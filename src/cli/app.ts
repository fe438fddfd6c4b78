// Tested by tests/cli/commands/commands_test.ts
import { defineCommand } from "citty";
import { VERSION } from "../version.ts";
import type { CliCommand } from "./command.ts";

/** One subcommand: its summary for the root help, and its module, loaded on first use. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  // deno-lint-ignore no-explicit-any
  readonly load: () => Promise<CliCommand<any>>;
}

/**
 * Every subcommand, loaded on first use: `--version` and a wake's `resume`
 * should not pay for evaluating every other command's modules. The
 * summaries live here, not only in each command's `meta`, so the root help
 * loads none of them.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "measure",
    summary: "Measure a candidate against a baseline per a contract; park or decide",
    load: () => import("./commands/measure.ts").then((m) => m.measureCommand),
  },
  {
    name: "calibrate",
    summary: "Measure the base against itself in seeded pairs: the benchmark's noise, a min_effect to use",
    load: () => import("./commands/calibrate.ts").then((m) => m.calibrateCommand),
  },
  {
    name: "resume",
    summary: "Continue a run from its run.json (what the wake job runs)",
    load: () => import("./commands/resume.ts").then((m) => m.resumeCommand),
  },
  {
    name: "show",
    summary: "Where a run stands: each measure, the wake job, the verdict",
    load: () => import("./commands/show.ts").then((m) => m.showCommand),
  },
  {
    name: "wait",
    summary: "Block until a run is decided; exit with its verdict",
    load: () => import("./commands/wait.ts").then((m) => m.waitCommand),
  },
  {
    name: "runs",
    summary: "Every run of a climb (a directory of run dirs), oldest first",
    load: () => import("./commands/runs.ts").then((m) => m.runsCommand),
  },
  {
    name: "report",
    summary: "A run or a climb as Markdown (--md) or one self-contained HTML file (--html FILE)",
    load: () => import("./commands/report.ts").then((m) => m.reportCommand),
  },
  {
    name: "prune",
    summary: "Remove the refs/dispatch/ pins no run of a climb needs any more",
    load: () => import("./commands/prune.ts").then((m) => m.pruneCommand),
  },
  {
    name: "schema",
    summary: "Print a JSON Schema: the contract, decision.json, or each command's --json output",
    load: () => import("./commands/schema.ts").then((m) => m.schemaCommand),
  },
  {
    name: "submit",
    summary: "Submit one job (--dry-run --json prints the sbatch argv)",
    load: () => import("./commands/submit.ts").then((m) => m.submitCommand),
  },
  {
    name: "status",
    summary: "A job's state, run time, pending reason and partition",
    load: () => import("./commands/status.ts").then((m) => m.statusCommand),
  },
  {
    name: "cancel",
    summary: "Cancel a job, or every job of a run (idempotent)",
    load: () => import("./commands/cancel.ts").then((m) => m.cancelCommand),
  },
  {
    name: "jobs",
    summary: "This user's queued and running jobs, from one listing",
    load: () => import("./commands/jobs.ts").then((m) => m.jobsCommand),
  },
];

/** The program's name, version and one line: the first line of the root help. */
export const META = {
  name: "outerloop",
  version: VERSION,
  description: "measure a benchmark on a baseline and a candidate commit as batch jobs, park, wake, decide.",
} as const;

/**
 * The program as citty declares it: its meta and its subcommands, each a
 * function that loads its command's module (citty's lazy `subCommands`).
 */
const ROOT = defineCommand({
  meta: META,
  subCommands: Object.fromEntries(COMMANDS.map((c) => [c.name, c.load])),
});

/** The loader of the subcommand `name` from the root's `subCommands`, or undefined when there is none. */
export function subCommand(name: string): CommandEntry["load"] | undefined {
  const loaders = ROOT.subCommands as Readonly<Record<string, CommandEntry["load"]>>;
  return Object.hasOwn(loaders, name) ? loaders[name] : undefined;
}
