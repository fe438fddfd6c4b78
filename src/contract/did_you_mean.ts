import { type core, strictObject } from "zod/mini";
import "../schema/zod.ts";
import { closestKey } from "../text/did_you_mean.ts";

export { closestKey, editDistance } from "../text/did_you_mean.ts";

/**
 * A contract's unknown key named with the key it was most likely meant to
 * be: `min_efect` reads "did you mean "min_effect"?", not the list of every
 * key, in which the one meant is easy to miss. A key no known key is close
 * to is named alone, with where the keys are listed.
 */

/** The refusal of one unknown key. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = closestKey(key, known);
  return near === null
    ? `Unknown key ${JSON.stringify(key)}; remove it (the README's contract table lists every key)`
    : `Unknown key ${JSON.stringify(key)}: did you mean ${JSON.stringify(near)}?`;
}

/** A strict object of the contract whose unknown keys are refused with `unknownKeyMessage`. */
export function contractObject<T extends core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape);
  return strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => unknownKeyMessage(k, known)).join("; ") : undefined,
  });
}
