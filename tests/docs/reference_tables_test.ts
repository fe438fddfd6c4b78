/**
 * The reference pages' key tables (docs/contract.md, docs/json.md) against
 * the JSON Schemas `outerloop schema` prints (tests/helpers/schema_tables.ts):
 * each table lists exactly the keys of what its marker names, says which can
 * be null or left out and the defaults; every `--json` answer of every
 * command has its table; every key any answer can hold is named in the JSON
 * reference.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { OUTPUTS, schemaDocument } from "../../src/output/commands.ts";
import { ROOT } from "../helpers/doc_sandbox.ts";
import { allKeyNames, type KeyTable, keyTables, rowProblems, schemaAt } from "../helpers/schema_tables.ts";

type Schema = Record<string, unknown>;

const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");
const TABLES: KeyTable[] = PAGES.flatMap((p) => keyTables(p, read(p)));

/** The outputs a command's --json may be: its schema's alternatives, a union within one spread out. */
function alternatives(command: string): Schema[] {
  const spread = (s: Schema): Schema[] =>
    s["properties"] === undefined && Array.isArray(s["anyOf"]) ? (s["anyOf"] as Schema[]).flatMap(spread) : [s];
  return spread(schemaDocument("output", command));
}

function statusOf(alt: Schema): string | undefined {
  const status = ((alt["properties"] ?? {}) as Record<string, Schema>)["status"];
  return status?.["const"] as string | undefined;
}

/** What a marker names: groups of objects, the table matching one object of each group. */
function selected(
  selector: string,
): { label: string; objects: { command: string; index: number; object: Schema | null }[] }[] {
  const [what, ...rest] = selector.split(/\s+/);
  const atIndex = rest.indexOf("at");
  const path = atIndex >= 0 ? rest[atIndex + 1]! : "";
  const names = atIndex >= 0 ? rest.slice(0, atIndex) : rest;
  if (what === "contract" || what === "decision") {
    return [{ label: what, objects: [{ command: what, index: 0, object: schemaAt(schemaDocument(what), path) }] }];
  }
  if (what !== "output") throw new Error(`unknown keys marker ${JSON.stringify(selector)}`);
  return names.flatMap((name) => {
    const [command, status] = name.split("/") as [string, string | undefined];
    const commands = command === "*" ? Object.keys(OUTPUTS) : [command];
    return commands.map((c) => {
      if (OUTPUTS[c] === undefined) throw new Error(`keys marker ${JSON.stringify(selector)}: no command ${c}`);
      const objects = alternatives(c).flatMap((alt, index) =>
        statusOf(alt) === status ? [{ command: c, index, object: schemaAt(alt, path) }] : []
      );
      return { label: `${c}/${status ?? "(no status)"}${path}`, objects };
    });
  });
}

describe("the reference pages' key tables", () => {
  it("list exactly the keys of what their marker names: null, absent and defaults as the schemas say", () => {
    assert.ok(TABLES.length > 0, "the docs have key tables");
    const problems: string[] = [];
    for (const t of TABLES) {
      for (const group of selected(t.selector)) {
        const tried = group.objects.filter((o) => o.object !== null).map((o) => rowProblems(t, o.object!));
        if (tried.length === 0) problems.push(`${t.file}:${t.line}: ${group.label} names no object`);
        else if (!tried.some((p) => p.length === 0)) {
          const best = tried.reduce((a, b) => (b.length < a.length ? b : a));
          problems.push(`${t.file}:${t.line}: as ${group.label}:\n  ${best.join("\n  ")}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it("give every --json answer of every command, and the contract with its siblings and guards", () => {
    const covered = new Set<string>();
    for (const t of TABLES.filter((t) => !t.selector.includes(" at "))) {
      for (const group of selected(t.selector)) {
        for (const o of group.objects) {
          if (o.object !== null && rowProblems(t, o.object).length === 0) {
            covered.add(`${o.command}#${o.index}`);
          }
        }
      }
    }
    const missing = Object.keys(OUTPUTS).flatMap((c) =>
      alternatives(c).flatMap((alt, i) =>
        covered.has(`${c}#${i}`) ? [] : [`${c} --json, status ${statusOf(alt) ?? "none"}`]
      )
    );
    assert.deepEqual(missing, [], "an answer with no key table in the docs");
    for (const s of ["contract", "contract at .siblings[]", "contract at .guards[]", "decision"]) {
      assert.ok(TABLES.some((t) => t.selector === s), `a table <!-- keys: ${s} -->`);
    }
  });

  it("name every key an answer can hold somewhere in docs/json.md", () => {
    const page = read("docs/json.md");
    // a name in code: `key`, or within one (`{n, min, median, max}`)
    const spans = page.split("\n").filter((l) => !l.startsWith("```")).flatMap((l) => [...l.matchAll(/`([^`]+)`/g)]);
    const named = new Set(spans.flatMap((m) => m[1]!.match(/[a-z_][a-z0-9_]*/g) ?? []));
    const missing = [...allKeyNames(schemaDocument("output"))].filter((k) => !named.has(k)).sort();
    assert.deepEqual(missing, [], "keys of `outerloop schema output` docs/json.md never names");
  });
});
