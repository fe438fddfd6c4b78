import { type core, strictObject } from "zod/mini";
import "../schema/zod.ts";

/**
 * A contract's unknown key named with the key it was most likely meant to
 * be: `min_efect` reads "did you mean "min_effect"?", not the list of every
 * key, in which the one meant is easy to miss. A key no known key is close
 * to is named alone, with where the keys are listed.
 */

/** The Levenshtein distance of two strings (insertions, deletions and substitutions of one character). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known key closest to `key`, or null when none is close: within a
 * third of the longer name's length (at least 2 edits, so `tolerence` and
 * `min_efect` find theirs), compared without case and with `-` read as `_`.
 */
export function closestKey(key: string, known: readonly string[]): string | null {
  const norm = (s: string) => s.toLowerCase().replaceAll("-", "_");
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(norm(key), norm(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best === null) return null;
  return bestDistance <= Math.max(2, Math.floor(Math.max(key.length, best.length) / 3)) ? best : null;
}

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
