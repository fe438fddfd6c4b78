/**
 * Lists the exported values of src/ that no other file imports (src/,
 * tests/, scripts/), and exits 1 when there is one: an export nobody takes is
 * either dead code or a name that should be private to its module. Part of
 * `deno task lint`. What it reads as an export: `export function|const|let|
 * class|enum|async function NAME` and `export { A, B as C }` (types are left
 * out: a type in an exported signature is the caller's to name); as a use:
 * NAME inside an `import { … }` or `export { … } from` of another file, a
 * namespace import's `ns.NAME`, or — in a file that loads modules with
 * `import()` — a property read or a destructured name. `src/main.ts` (the entry) is
 * exempt. A module may keep an export for a reason a reader cannot see by
 * marking the line above it with `// exported for: <why>`.
 *
 * Usage: deno run -A scripts/unused_exports.ts
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname ?? ".", "..");
const ENTRY = "src/main.ts";

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && name !== "fixtures") out.push(...tsFiles(path));
    } else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const DECLARED = /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|enum)\s+([A-Za-z_$][\w$]*)/gm;
const LISTED = /^export\s*\{([^}]*)\}\s*(?:from\s*["'][^"']+["'])?\s*;?/gm;
const DYNAMIC = /\bimport\(\s*["'][^"']+["']\s*\)/;
const IMPORTED = /(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["'][^"']+["']/g;
/** In a file that loads modules with import(): a destructured binding list (`const { a } = await import(…)`, `([{ a }, { b }])`). */
const BINDINGS = /\{\s*([\w$]+(?:\s*,\s*[\w$]+)*)\s*\}/g;
const NAMESPACE = /import\s*(?:type\s*)?\*\s*as\s+([\w$]+)\s+from/g;

/** The names an import or re-export list brings in (`A`, `type B`, `C as D` → A, B, C). */
function listedNames(list: string): string[] {
  return list.split(",").map((s) => s.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!.trim()).filter(Boolean);
}

const files = ["src", "tests", "scripts"].flatMap((d) => tsFiles(join(ROOT, d)));
const texts = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

/** Every name some file takes from another, by the file that takes it. */
const usedElsewhere = new Map<string, Set<string>>();
for (const [file, text] of texts) {
  const add = (name: string) => {
    const users = usedElsewhere.get(name) ?? new Set<string>();
    users.add(file);
    usedElsewhere.set(name, users);
  };
  for (const m of text.matchAll(IMPORTED)) listedNames(m[1]!).forEach(add);
  if (DYNAMIC.test(text)) {
    for (const m of text.matchAll(BINDINGS)) m[1]!.split(",").map((n) => n.trim()).forEach(add);
  }
  // a module loaded by import() is used through properties of what it resolves to (`m.showCommand`)
  if (DYNAMIC.test(text)) { for (const u of text.matchAll(/[\w$)]\.([A-Za-z_$][\w$]*)/g)) add(u[1]!); }
  for (const m of text.matchAll(NAMESPACE)) {
    for (const u of text.matchAll(new RegExp(`\\b${m[1]}\\.([A-Za-z_$][\\w$]*)`, "g"))) add(u[1]!);
  }
}

const unused: string[] = [];
for (const [file, text] of texts) {
  const rel = relative(ROOT, file);
  if (!rel.startsWith("src/") || rel === ENTRY) continue;
  const lines = text.split("\n");
  const exported: { name: string; line: number }[] = [];
  for (const m of text.matchAll(DECLARED)) {
    exported.push({ name: m[1]!, line: text.slice(0, m.index).split("\n").length });
  }
  for (const m of text.matchAll(LISTED)) {
    if (/\bfrom\b/.test(m[0])) continue; // a re-export's names are checked where they are declared
    const line = text.slice(0, m.index).split("\n").length;
    for (const name of listedNames(m[1]!)) exported.push({ name, line });
  }
  for (const { name, line } of exported) {
    if (/\/\/ exported for:/.test(lines[line - 2] ?? "")) continue;
    const users = [...(usedElsewhere.get(name) ?? [])].filter((u) => u !== file);
    if (users.length === 0) unused.push(`${rel}:${line}: ${name}`);
  }
}

if (unused.length > 0) {
  console.error(`${unused.length} export(s) no other file imports (make them private, remove them, or say why):`);
  for (const u of unused.sort()) console.error(`  ${u}`);
  process.exit(1);
}
console.error("no unused exports");
