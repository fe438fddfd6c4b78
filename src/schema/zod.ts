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

/** A whole number ≥ `min`, refused in the house's words. */
export function wholeNumber(min: number) {
  // a number first, so a string reads "expected number, received string", as the chained API says
  return number().check(
    refine(Number.isSafeInteger, { error: "expected a whole number" }),
    minimum(min, { error: `expected a whole number >= ${min}` }),
  );
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
