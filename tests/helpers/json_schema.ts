/**
 * A JSON Schema (draft 2020-12) validator for the keywords `outerloop
 * schema` emits, so a test checks real output against the JSON Schema a
 * user gets, not only the zod schema it was made from. A keyword it does
 * not know fails the check: the schemas can then not grow past what is
 * tested. Returns the problems, each with its JSON path; [] when it is valid.
 */

type Schema = Record<string, unknown>;

/** Keywords that only describe. */
const NOTES = new Set(["$schema", "title", "description", "default", "examples", "format", "$defs", "$id"]);

export function validateJson(root: Schema, value: unknown): string[] {
  const problems: string[] = [];
  check(root, root, value, "$", problems);
  return problems;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function isType(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === "number" && actual === "integer");
}

function check(root: Schema, s: Schema, v: unknown, at: string, out: string[]): void {
  for (const [k, rule] of Object.entries(s)) {
    if (NOTES.has(k)) continue;
    switch (k) {
      case "$ref": {
        const m = /^#\/\$defs\/(.+)$/.exec(rule as string);
        if (!m) throw new Error(`unsupported $ref ${rule}`);
        const target = (root["$defs"] as Record<string, Schema>)[m[1]!];
        if (target === undefined) throw new Error(`no $defs entry ${m[1]}`);
        check(root, target, v, at, out);
        break;
      }
      case "type": {
        const types = Array.isArray(rule) ? rule as string[] : [rule as string];
        if (!types.some((t) => isType(v, t))) out.push(`${at}: expected ${types.join(" or ")}, got ${typeOf(v)}`);
        break;
      }
      case "enum":
        if (!(rule as unknown[]).some((x) => x === v)) out.push(`${at}: ${JSON.stringify(v)} is not one of the enum`);
        break;
      case "const":
        if (rule !== v) out.push(`${at}: expected ${JSON.stringify(rule)}, got ${JSON.stringify(v)}`);
        break;
      case "minimum":
        if (typeof v === "number" && v < (rule as number)) out.push(`${at}: ${v} < ${rule}`);
        break;
      case "maximum":
        if (typeof v === "number" && v > (rule as number)) out.push(`${at}: ${v} > ${rule}`);
        break;
      case "exclusiveMinimum":
        if (typeof v === "number" && v <= (rule as number)) out.push(`${at}: ${v} <= ${rule}`);
        break;
      case "exclusiveMaximum":
        if (typeof v === "number" && v >= (rule as number)) out.push(`${at}: ${v} >= ${rule}`);
        break;
      case "minLength":
        if (typeof v === "string" && [...v].length < (rule as number)) out.push(`${at}: shorter than ${rule}`);
        break;
      case "maxLength":
        if (typeof v === "string" && [...v].length > (rule as number)) out.push(`${at}: longer than ${rule}`);
        break;
      case "pattern":
        if (typeof v === "string" && !new RegExp(rule as string, "u").test(v)) {
          out.push(`${at}: does not match ${rule}`);
        }
        break;
      case "required":
        if (typeOf(v) === "object") {
          for (const key of rule as string[]) if (!Object.hasOwn(v as object, key)) out.push(`${at}: no key ${key}`);
        }
        break;
      case "properties":
        if (typeOf(v) === "object") {
          for (const [key, sub] of Object.entries(rule as Record<string, Schema>)) {
            if (Object.hasOwn(v as object, key)) {
              check(root, sub, (v as Record<string, unknown>)[key], `${at}.${key}`, out);
            }
          }
        }
        break;
      case "additionalProperties":
        if (typeOf(v) === "object") {
          const known = new Set(Object.keys((s["properties"] ?? {}) as object));
          for (const [key, x] of Object.entries(v as object)) {
            if (known.has(key)) continue;
            if (rule === false) out.push(`${at}: unknown key ${key}`);
            else if (typeof rule === "object") check(root, rule as Schema, x, `${at}.${key}`, out);
          }
        }
        break;
      case "propertyNames":
        if (typeOf(v) === "object") {
          for (const key of Object.keys(v as object)) check(root, rule as Schema, key, `${at}[key ${key}]`, out);
        }
        break;
      case "items":
        if (Array.isArray(v)) v.forEach((x, i) => check(root, rule as Schema, x, `${at}[${i}]`, out));
        break;
      case "anyOf":
      case "oneOf": {
        const fits = (rule as Schema[]).filter((sub) => {
          const p: string[] = [];
          check(root, sub, v, at, p);
          return p.length === 0;
        }).length;
        if (fits === 0) out.push(`${at}: fits none of its ${k} alternatives`);
        if (k === "oneOf" && fits > 1) out.push(`${at}: fits ${fits} of its oneOf alternatives`);
        break;
      }
      case "allOf":
        for (const sub of rule as Schema[]) check(root, sub, v, at, out);
        break;
      default:
        throw new Error(`validateJson: unsupported keyword ${JSON.stringify(k)} at ${at}`);
    }
  }
}
