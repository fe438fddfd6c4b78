/**
 * What every schema of a contract and of a run dir's files shares: zod's
 * `zod/mini` API configured once with English messages (the same validation
 * and words as the chained API), and the house's two helpers. Loading zod's
 * classic module was about 12 ms of every start of the compiled binary, more
 * than everything else a wake's `resume` of a decided run does; `zod/mini`,
 * imported as `import * as z from "zod/mini"` in each schema module so that
 * only what is used is bundled, is a fraction of it. Import this module in
 * every schema module, for its configuration.
 */
import { config, type core, minimum, number, refine, strictObject } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

/**
 * What JSON Schema cannot read from a schema itself, by schema: a whole
 * number's `"type": "integer"`, a custom check's whole form. Filled where
 * the schemas are built (a weak map: no cost until `jsonForm` is asked),
 * read by output/json_schema.ts.
 */
const JSON_FORMS = new WeakMap<object, Readonly<Record<string, unknown>>>();

/** Says that `schema` reads as `form` in JSON Schema (merged over what zod makes of it); returns `schema`. */
export function withJsonForm<T extends object>(schema: T, form: Readonly<Record<string, unknown>>): T {
  JSON_FORMS.set(schema, form);
  return schema;
}

/** The JSON Schema form `withJsonForm` gave `schema`, or undefined. */
export function jsonForm(schema: object): Readonly<Record<string, unknown>> | undefined {
  return JSON_FORMS.get(schema);
}

/** A whole number ≥ `min`, refused in the house's words. */
export function wholeNumber(min: number) {
  // a number first, so a string reads "expected number, received string", as the chained API says
  const schema = number().check(
    refine(Number.isSafeInteger, { error: "expected a whole number" }),
    minimum(min, { error: `expected a whole number >= ${min}` }),
  );
  return withJsonForm(schema, { type: "integer" });
}

/**
 * `strictObject` whose refusal of an unknown key names it and the keys it
 * knows, so a typo reads as one. Shared by the contract and every run-dir
 * file schema.
 */
export function strict<T extends core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape).join(", ");
  return strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}; the known keys are ${known}`
        : undefined,
  });
}

/**
 * A schema built on first use. Building a schema is a good part of what
 * loading a module of schemas costs, and most commands read one or two of
 * the run dir's files: a `resume` of a decided run never builds the
 * calibration's, the wake's or the cancel record's.
 */
export function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
