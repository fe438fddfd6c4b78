/**
 * Shape checks: predicates that mirror a zod schema without defaults or
 * transforms, for a fast path that skips building the schema (building it
 * is most of what reading a small file costs at start-up). A value a check
 * accepts is one the schema accepts unchanged, so it is its own output; a
 * value it refuses goes to the schema, which decides and words the refusal.
 * So each check may refuse more than its schema (a key `__proto__`, which
 * zod's copy would turn into a prototype), never less. Each fast path's test
 * holds it beside its schema.
 */

/** A predicate over a value parsed from JSON. */
export type Check = (v: unknown) => boolean;

export const str: Check = (v) => typeof v === "string";
/** `z.number()`: finite. */
export const num: Check = (v) => typeof v === "number" && Number.isFinite(v);
/** `z.number().check(z.minimum(min))`. */
export const atLeast = (min: number): Check => (v) => num(v) && (v as number) >= min;
/** `wholeNumber(min)` of schema/zod.ts. */
export const whole = (min: number): Check => (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= min;
export const oneOf = (...values: readonly unknown[]): Check => (v) => values.includes(v);
export const nullable = (c: Check): Check => (v) => v === null || c(v);
export const matches = (re: RegExp): Check => (v) => typeof v === "string" && re.test(v);
export const arrayOf = (c: Check): Check => (v) => Array.isArray(v) && v.every(c);

/** A plain object (what JSON.parse makes of `{…}`). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `z.record(z.string(), c)`. */
export const recordOf = (c: Check): Check => (v) => {
  if (!isPlainObject(v)) return false;
  for (const k in v) if (k === "__proto__" || !c(v[k])) return false;
  return true;
};

/** A key of `strictObject` that may be absent (`z.optional`). */
export interface Optional {
  readonly optional: Check;
}
export const optional = (c: Check): Optional => ({ optional: c });

/** `strict({...})`: exactly these keys, the optional ones possibly absent. */
export function object(shape: Readonly<Record<string, Check | Optional>>): Check {
  const entries = Object.entries(shape);
  const known = new Set(Object.keys(shape));
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (const k in v) if (!known.has(k)) return false;
    for (const [k, c] of entries) {
      const x = v[k];
      if (typeof c === "function" ? !c(x) : x !== undefined && !c.optional(x)) return false;
    }
    return true;
  };
}

/**
 * A timestamp as `Date#toISOString` writes it, and a real instant (the round
 * trip gives it back unchanged only for a valid date and time), which zod's
 * `z.iso.datetime({ offset: true })` accepts. Any other form, which the
 * schema may well accept too, is left to it.
 */
export const isoTimestamp: Check = (v) => {
  if (typeof v !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/.test(v)) {
    return false;
  }
  const t = Date.parse(v);
  return Number.isFinite(t) && new Date(t).toISOString() === v;
};

/** A commit sha (`shaSchema` of rundir/run_record.ts). */
export const sha = matches(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
