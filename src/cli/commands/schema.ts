// Tested by tests/output/outputs_test.ts
import { BadInputError } from "../../errors.ts";
import { defineLeaf } from "../command.ts";
import { outLine } from "../shared/io.ts";
import { OUTPUTS, SCHEMA_NAMES, schemaDocument } from "../../output/commands.ts";

/** Which schema `outerloop schema` prints. */
export interface SchemaOptions {
  readonly name: (typeof SCHEMA_NAMES)[number];
  /** `--command CMD`: only that command's `--json` (with `output`). */
  readonly command: string | undefined;
}

/** `outerloop schema contract|decision|output`: a JSON Schema, from the zod schemas the code validates with. */
export const schemaCommand = defineLeaf<SchemaOptions>({
  meta: {
    name: "schema",
    description: "Print a JSON Schema: the contract file, decision.json, or every command's --json output",
  },
  args: {
    NAME: { type: "positional", description: "contract, decision or output" },
    command: {
      type: "string",
      valueHint: "CMD",
      description: "With output: only this command's --json (measure, resume, wait, show, runs, …)",
    },
  },
  details: [
    "Generated from the zod schemas the tool itself validates with (the contract, decision.json) or builds its",
    "--json to, so they cannot drift from it (JSON Schema draft 2020-12; zod's toJSONSchema).",
    'A contract may name its schema for an editor: "$schema": "./contract.schema.json" (the check ignores that key).',
    "output: one schema whose $defs has each command's --json (answers, and the error and interrupted objects",
    'every command prints with --json); "status" tells a run\'s answers apart: decided, parked, calibrated,',
    "waiting, error, interrupted.",
  ],
  examples: [
    "outerloop schema contract > contract.schema.json",
    "outerloop schema output --command measure",
  ],

  parse(args) {
    const name = args.positional["NAME"]!;
    if (!(SCHEMA_NAMES as readonly string[]).includes(name)) {
      throw new BadInputError(`Unknown schema ${JSON.stringify(name)}: expected contract, decision or output`);
    }
    const command = args.value("command");
    if (command !== undefined && name !== "output") {
      throw new BadInputError(`--command goes with "outerloop schema output", not ${JSON.stringify(name)}`);
    }
    return { name: name as SchemaOptions["name"], command };
  },

  async execute(o, { io }) {
    if (o.command !== undefined && !Object.hasOwn(OUTPUTS, o.command)) {
      throw new BadInputError(
        `Unknown --command ${JSON.stringify(o.command)}: expected one of ${Object.keys(OUTPUTS).join(", ")}`,
      );
    }
    outLine(io, JSON.stringify(schemaDocument(o.name, o.command), null, 2));
    return 0;
  },
});
