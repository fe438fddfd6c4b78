import assert from "node:assert/strict";
import * as z from "zod/mini";
import { OUTPUTS, schemaDocument } from "../../src/output/commands.ts";
import { validateJson } from "./json_schema.ts";

/**
 * Asserts that `stdout` is one JSON object that `command`'s `--json` schema
 * accepts — the zod schema the code builds it to, and the JSON Schema
 * `outerloop schema output --command <command>` prints — and returns it.
 */
// deno-lint-ignore no-explicit-any -- the parsed output, for the test to read on
export function assertOutput(command: string, stdout: string, what = command): any {
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1, `${what}: one line of JSON on stdout, got:\n${stdout}`);
  const value = JSON.parse(lines[0]!);
  const zod = z.safeParse(OUTPUTS[command]!.schema(), value);
  assert.ok(
    zod.success,
    `${what}: the zod schema accepts it:\n${lines[0]}\n${zod.success ? "" : z.prettifyError(zod.error)}`,
  );
  const problems = validateJson(schemaDocument("output", command), value);
  assert.deepEqual(problems, [], `${what}: the JSON Schema accepts it:\n${lines[0]}`);
  return value;
}
