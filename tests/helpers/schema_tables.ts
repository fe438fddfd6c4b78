/**
 * The key tables of the reference pages, held to the JSON Schemas
 * `outerloop schema` prints, so a page cannot list a key the tool does not
 * have, miss one it has, or say a key is never null when it can be.
 *
 * A key table follows a marker line naming what it lists:
 *
 *     <!-- keys: contract -->                       the contract file's keys
 *     <!-- keys: contract at .siblings[] -->        a sibling's
 *     <!-- keys: decision -->                       decision.json's
 *     <!-- keys: output measure/decided wait/decided -->   those commands' --json with that status
 *     <!-- keys: output runs/error show/error -->   those commands' error object (CMD `*`: every command's)
 *     <!-- keys: output show at .measures[] -->     show --json's (no status) measures' items
 *
 * Its first column holds the keys (each in backticks; several may share a
 * row). Its rows must be exactly the keys of the object named (for each
 * `CMD/STATUS`: of one of the outputs it names). A column headed
 * `null when` says `never` for a key that is always there and never null,
 * and `absent …` for one that may be left out; a column headed `default`
 * gives the schema's default in backticks (`required` for a required key).
 */

type Schema = Record<string, unknown>;

/** One row: its keys and its cells by the header's names. */
export interface KeyRow {
  readonly line: number;
  readonly keys: readonly string[];
  readonly cells: Readonly<Record<string, string>>;
}

/** A table and what its marker names. */
export interface KeyTable {
  readonly file: string;
  readonly line: number;
  readonly selector: string;
  readonly header: readonly string[];
  readonly rows: readonly KeyRow[];
}

const MARKER = /^<!-- keys: (.+) -->$/;

function cellsOf(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim());
}

/** Every key table of a page. */
export function keyTables(file: string, markdown: string): KeyTable[] {
  const lines = markdown.split("\n");
  const tables: KeyTable[] = [];
  lines.forEach((text, i) => {
    const m = MARKER.exec(text.trim());
    if (!m) return;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === "") j++;
    if (!lines[j]?.startsWith("|")) throw new Error(`${file}:${i + 1}: a keys marker with no table after it`);
    const header = cellsOf(lines[j]!);
    const rows: KeyRow[] = [];
    for (j += 2; j < lines.length && lines[j]!.startsWith("|"); j++) {
      const cells = cellsOf(lines[j]!);
      const keys = [...cells[0]!.matchAll(/`([^`]+)`/g)].map((k) => k[1]!);
      rows.push({ line: j + 1, keys, cells: Object.fromEntries(header.map((h, k) => [h, cells[k] ?? ""])) });
    }
    tables.push({ file, line: i + 1, selector: m[1]!.trim(), header, rows });
  });
  return tables;
}

/** An object schema: `s` itself, or its object alternative. */
export function objectOf(s: Schema): Schema | null {
  if (s["type"] === "object" && s["properties"] !== undefined) return s;
  for (const alt of (s["anyOf"] ?? s["oneOf"] ?? []) as Schema[]) {
    const o = objectOf(alt);
    if (o !== null) return o;
  }
  return null;
}

function propertiesOf(s: Schema): Record<string, Schema> {
  return (s["properties"] ?? {}) as Record<string, Schema>;
}

/** Whether a property's schema lets it be null. */
export function nullable(s: Schema): boolean {
  const type = s["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  return ((s["anyOf"] ?? s["oneOf"] ?? []) as Schema[]).some(nullable);
}

/** The schema at `path` (`.round.candidates[]`, `.measures[]`, `.values{}`) under `s`; null when there is none. */
export function schemaAt(s: Schema, path: string): Schema | null {
  let at: Schema | null = s;
  for (const step of path.match(/\.[^.[{]+|\[\]|\{\}/g) ?? []) {
    if (at === null) return null;
    if (step === "[]") {
      const items: Schema | undefined = (at["items"] ?? objectOrArray(at)?.["items"]) as Schema | undefined;
      at = items ?? null;
    } else if (step === "{}") {
      at = (at["additionalProperties"] as Schema | undefined) ?? null;
    } else {
      const o = objectOf(at);
      at = o === null ? null : propertiesOf(o)[step.slice(1)] ?? null;
    }
  }
  return at === null ? null : objectOf(at);
}

function objectOrArray(s: Schema): Schema | undefined {
  return ((s["anyOf"] ?? []) as Schema[]).find((alt) => alt["type"] === "array");
}

/** Every property name anywhere in `s`. */
export function allKeyNames(s: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(s)) { for (const x of s) allKeyNames(x, out); }
  else if (s !== null && typeof s === "object") {
    for (const [k, v] of Object.entries(s as Schema)) {
      if (k === "properties") { for (const name of Object.keys(v as Schema)) out.add(name); }
      allKeyNames(v, out);
    }
  }
  return out;
}

/** What is wrong with `table`'s rows as the keys of `object`: [] when they are exactly its keys, each as the header says. */
export function rowProblems(table: KeyTable, object: Schema): string[] {
  const problems: string[] = [];
  const props = propertiesOf(object);
  const required = new Set((object["required"] ?? []) as string[]);
  const listed = table.rows.flatMap((r) => r.keys);
  for (const k of Object.keys(props)) if (!listed.includes(k)) problems.push(`key \`${k}\` is not listed`);
  for (const row of table.rows) {
    for (const k of row.keys) {
      const p = props[k];
      if (p === undefined) {
        problems.push(`line ${row.line}: \`${k}\` is no key of it`);
        continue;
      }
      const nullWhen = row.cells["null when"];
      if (nullWhen !== undefined) {
        if (nullable(p) && /^never\b/.test(nullWhen)) problems.push(`line ${row.line}: \`${k}\` can be null`);
        if (!nullable(p) && required.has(k) && nullWhen !== "never") {
          problems.push(`line ${row.line}: \`${k}\` is always there and never null: say "never"`);
        }
        if (!required.has(k) && !/absent/.test(nullWhen)) {
          problems.push(`line ${row.line}: \`${k}\` may be left out: say when it is absent`);
        }
      }
      const dflt = row.cells["default"];
      if (dflt !== undefined) {
        if (required.has(k) && dflt !== "required") problems.push(`line ${row.line}: \`${k}\` is required`);
        if (Object.hasOwn(p, "default") && !dflt.includes("`" + JSON.stringify(p["default"]) + "`")) {
          problems.push(`line ${row.line}: \`${k}\`'s default is \`${JSON.stringify(p["default"])}\``);
        }
      }
    }
  }
  return problems;
}
