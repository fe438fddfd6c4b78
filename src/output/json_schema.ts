// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import { jsonForm } from "../schema/zod.ts";

/**
 * A zod schema as JSON Schema (draft 2020-12, zod 4's `toJSONSchema`), with
 * what zod cannot read from our schemas put back (`withJsonForm`: a whole
 * number is an `integer`; a contract threshold a number ≥ 0 or a `"2%"`).
 * The input side: a key with a default may be left out.
 */
export function jsonSchemaOf(
  schema: z.core.$ZodType,
  meta: { readonly title: string; readonly description: string },
): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: (ctx) => {
      const form = jsonForm(ctx.zodSchema);
      if (form !== undefined) Object.assign(ctx.jsonSchema, form);
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = json;
  return { $schema, title: meta.title, description: meta.description, ...rest };
}
