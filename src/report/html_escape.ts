// Tested by tests/report/html_test.ts
/**
 * Escaping for the HTML report. Everything that comes from a run — a
 * benchmark name, a tag, a reason, a failure line, a run dir — may hold
 * `<`, `&` or quotes, and the report is a file people open in a browser: every
 * piece of text goes through `escapeHtml` before it is written, in element
 * content and attribute values alike (SVG included).
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe as element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * Attributes from a record, escaped, in the record's order, each with a
 * leading space: `attrs({ x: 1, "data-point": "pair" })` → ` x="1" data-point="pair"`.
 * Undefined and null values are left out.
 */
export function attrs(record: Readonly<Record<string, string | number | null | undefined>>): string {
  return Object.entries(record)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join("");
}

/**
 * An id that is safe in HTML and usable by `aria-labelledby` (no spaces):
 * `prefix` plus a slug of `text`, with a counter from `seen` when the slug
 * repeats, so two charts can never share an id.
 */
export function uniqueId(prefix: string, text: string, seen: Set<string>): string {
  const slug = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  const base = slug === "" ? prefix : `${prefix}-${slug}`;
  let id = base;
  for (let k = 2; seen.has(id); k++) id = `${base}-${k}`;
  seen.add(id);
  return id;
}
