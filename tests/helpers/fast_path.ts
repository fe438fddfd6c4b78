import assert from "node:assert/strict";

/**
 * For the tests that hold a fast path beside its zod schema: every variant
 * of a valid value with one thing changed — each key, at any depth, deleted,
 * set to each of `ODD_VALUES`, or joined by an unknown key — and the check
 * that the fast path accepts only what the schema accepts, with its output.
 */

/** Values of every JSON type, valid for one field or another. */
export const ODD_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1,
  2,
  0.5,
  1.5,
  1e300,
  "",
  "x",
  "a".repeat(40),
  "2025-01-02T03:04:05.678Z",
  "2025-02-30T03:04:05.678Z",
  "2025-01-02T03:04:05Z",
  "relative",
  "accept",
  "crashed",
  "held",
  "dropped",
  "measured",
  "maximize",
  [],
  [1],
  ["x"],
  {},
  { x: 1 },
];

/** `value` with one change at each place: deleted, set to each odd value, an unknown key added. */
export function* variants(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      for (const v of variants(value[i])) yield value.map((x, j) => (j === i ? v : x));
    }
    return;
  }
  if (typeof value !== "object" || value === null) {
    yield* ODD_VALUES;
    return;
  }
  const o = value as Record<string, unknown>;
  yield { ...o, unknown_key: 1 };
  for (const k of Object.keys(o)) {
    const { [k]: _, ...rest } = o;
    yield rest;
    for (const v of variants(o[k])) yield { ...o, [k]: v };
  }
}

/** Whether `fast` accepted `value`; asserts the schema accepts it too, with the same output. */
export function agrees(
  fast: (v: unknown) => unknown,
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  value: unknown,
): boolean {
  const out = fast(value);
  if (out === null || out === false) return false;
  const zod = schema.safeParse(value);
  assert.ok(zod.success, `the fast path accepted what the schema refuses: ${JSON.stringify(value)}`);
  assert.deepStrictEqual(out === true ? value : out, zod.data, JSON.stringify(value));
  return true;
}
