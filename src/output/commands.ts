// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import { contractSchema } from "../contract/contract.ts";
import { decisionSchema } from "../rundir/decision_file.ts";
import { errorSchema, interruptedSchema } from "./error_output.ts";
import { cancelSchema, dryRunSchema, jobsSchema, pruneSchema, statusSchema, submitSchema } from "./job_outputs.ts";
import { jsonSchemaOf } from "./json_schema.ts";
import {
  calibratedSchema,
  decidedSchema,
  pairingsComparedSchema,
  pairingsParkedSchema,
  parkedSchema,
  waitingSchema,
} from "./outcome.ts";
import { runsSchema } from "./runs_output.ts";
import { showSchema } from "./show_output.ts";

/**
 * The schemas `outerloop schema` prints: the contract file, decision.json
 * and each command's `--json` stdout — the zod schemas the code validates
 * with (the contract, decision.json) or builds its output to (output/), so
 * the JSON Schema cannot drift from what the tool reads and writes.
 */

/** What a command prints on every exit with `--json`: its answers, or an error's or a signal's object. */
const answers = (...of: z.core.$ZodType[]) => z.union([...of, errorSchema(), interruptedSchema()]);

/** Each command's `--json` stdout, and what it is. */
export const OUTPUTS: Readonly<Record<string, { readonly what: string; readonly schema: () => z.core.$ZodType }>> = {
  measure: {
    what: "a pass's end (decided, parked, or with --wait waiting), or --dry-run's plan",
    schema: () => answers(decidedSchema(), parkedSchema(), waitingSchema(), dryRunSchema()),
  },
  calibrate: {
    what: "a calibration (calibrated, parked, waiting), or --pairing all's comparison",
    schema: () =>
      answers(calibratedSchema(), parkedSchema(), waitingSchema(), pairingsParkedSchema(), pairingsComparedSchema()),
  },
  resume: {
    what: "a pass's end: decided, parked or calibrated",
    schema: () => answers(decidedSchema(), parkedSchema(), calibratedSchema()),
  },
  wait: {
    what: "the run's end (decided, calibrated), or waiting when it stopped waiting",
    schema: () => answers(decidedSchema(), calibratedSchema(), waitingSchema()),
  },
  show: { what: "where a run stands", schema: () => answers(showSchema()) },
  runs: { what: "every run of a climb, oldest first", schema: () => answers(runsSchema()) },
  status: { what: "a job's state", schema: () => answers(statusSchema()) },
  jobs: { what: "the user's queued and running jobs", schema: () => answers(jobsSchema()) },
  submit: { what: "a submitted job's id, or --dry-run's argv", schema: () => answers(submitSchema()) },
  cancel: { what: "what a cancel did", schema: () => answers(cancelSchema()) },
  prune: { what: "the refs/dispatch/ pins removed and kept", schema: () => answers(pruneSchema()) },
};

/** What `outerloop schema` can print. */
export const SCHEMA_NAMES = ["contract", "decision", "output"] as const;

/** The JSON Schema `name` names; `command` picks one command's output. */
export function schemaDocument(name: (typeof SCHEMA_NAMES)[number], command?: string): Record<string, unknown> {
  if (name === "contract") {
    return jsonSchemaOf(contractSchema(), {
      title: "outerloop benchmark contract",
      description: "The contract file measure and calibrate read (--contract FILE).",
    });
  }
  if (name === "decision") {
    return jsonSchemaOf(decisionSchema(), {
      title: "outerloop decision.json",
      description: "A decided run's verdict and what it rests on, in RUN_DIR/decision.json.",
    });
  }
  if (command !== undefined) {
    const o = OUTPUTS[command]!;
    return jsonSchemaOf(o.schema(), { title: `outerloop ${command} --json`, description: o.what });
  }
  const defs = Object.fromEntries(
    Object.entries(OUTPUTS).map(([c, o]) => {
      const { $schema: _, ...one } = jsonSchemaOf(o.schema(), { title: `outerloop ${c} --json`, description: o.what });
      return [c, one];
    }),
  );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "outerloop --json output",
    description: "What a command prints on stdout with --json: one object, on every exit. $defs has each command's.",
    anyOf: Object.keys(defs).map((c) => ({ $ref: `#/$defs/${c}` })),
    $defs: defs,
  };
}
