import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

/**
 * Where a module's tests are (README, "Layout"; docs/design.md): every module
 * of src/ either has `tests/<same path>_test.ts`, or has no logic of its own
 * (below), or names in its own text the test that covers it with a line
 * `Tested by tests/x/y_test.ts` — a file that exists and imports the module
 * directly. So a reader finds a module's tests by its name, and a module no
 * test reaches is a failure here, not a surprise later.
 *
 * "No logic", mechanically: every top-level statement (after comments are
 * dropped) is an import, a type or interface, a re-export or export list, or
 * a `const` whose initializer holds no call, arrow, `function`, `new` or
 * `class` — types, literal constants and names passed on, nothing that runs.
 */

const ROOT = join(import.meta.dirname!, "..");

/**
 * Modules with logic that no test reaches yet, by path under src/: each one
 * here is a debt. The list only shrinks — an entry whose module now follows
 * the rule, or is gone, fails the test until it is taken off.
 */
const NOT_YET_TESTED: readonly string[] = [];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  );
}

/**
 * `text` with comments dropped and the contents of strings, templates and
 * regular expressions blanked (their delimiters and a template's `${…}` kept),
 * so a brace or keyword inside them counts for nothing. Newlines are kept.
 */
function codeOf(text: string): string {
  let out = "";
  let i = 0;
  /** For each open `${`: the brace depth inside it, to find the `}` that closes it. */
  const templates: number[] = [];
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  const regexMayStart = () => {
    const before = out.trimEnd();
    return before === "" || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || /\b(?:return|typeof|case|of|in)$/.test(before);
  };
  const template = () => {
    // from just after a "`" (or a "}" closing a `${`): to the closing "`" or the next "${"
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\\") {
        out += blank(text.slice(i, i + 2));
        i += 2;
      } else if (c === "`") {
        out += "`";
        i++;
        return;
      } else if (c === "$" && text[i + 1] === "{") {
        out += "${";
        i += 2;
        templates.push(0);
        return;
      } else {
        out += blank(c);
        i++;
      }
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, "");
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += c + blank(text.slice(i + 1, j)) + c;
      i = j + 1;
    } else if (c === "`") {
      out += "`";
      i++;
      template();
    } else if (c === "/" && regexMayStart()) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n" && (inClass || text[j] !== "/")) {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j++;
      }
      out += "/" + blank(text.slice(i + 1, j)) + "/";
      i = j + 1;
    } else if (templates.length > 0 && (c === "{" || c === "}")) {
      if (c === "{") {
        templates[templates.length - 1]!++;
        out += c;
        i++;
      } else if (templates[templates.length - 1] === 0) {
        templates.pop();
        out += "}";
        i++;
        template();
      } else {
        templates[templates.length - 1]!--;
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The top-level statements of `code` (from `codeOf`): each starts on a line
 * that begins at column 0 outside any bracket, and runs to the next such line
 * (`deno fmt` indents every continuation).
 */
function statements(code: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const line of code.split("\n")) {
    if (depth === 0 && /^[^\s)\]}]/.test(line)) out.push(line);
    else if (out.length > 0) out[out.length - 1] += "\n" + line;
    for (const c of line) {
      if (c === "{" || c === "(" || c === "[") depth++;
      else if (c === "}" || c === ")" || c === "]") depth--;
    }
  }
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Whether one top-level statement runs nothing: an import, a type, a re-export, or a literal constant. */
function inert(statement: string): boolean {
  if (/^import[\s{*"'`]/.test(statement) && !/^import\s*\(/.test(statement)) return true;
  if (/^(?:export\s+)?(?:declare\s+)?(?:type|interface)\s/.test(statement)) return true;
  if (/^export\s+(?:type\s+)?(?:\{|\*)/.test(statement)) return true;
  if (/^(?:export\s+)?const\s/.test(statement)) {
    return !/[(]|=>|\bfunction\b|\bnew\b|\bclass\b/.test(statement);
  }
  return false;
}

/** The first line of each statement of a module that runs something (empty: the module has no logic). */
function logicOf(text: string): string[] {
  return statements(codeOf(text)).filter((s) => !inert(s)).map((s) => s.split("\n")[0]!);
}

/**
 * The modules, by path under the repo, that `file` takes a value from by a
 * relative specifier (static or dynamic): a type-only import tests nothing.
 */
function importsOf(file: string): Set<string> {
  const text = codeOfImports(readFileSync(join(ROOT, file), "utf8"));
  const specs = [
    ...[...text.matchAll(/^(?:import|export)\s+([^;]*?)\s*from\s*["'](\.[^"']+)["']/gm)]
      .filter((m) => !/^type\s/.test(m[1]!) && !/^\{\s*(?:type\s+[\w$]+\s*,?\s*)*\}$/.test(m[1]!))
      .map((m) => m[2]!),
    ...[...text.matchAll(/\bimport\s*\(\s*["'](\.[^"']+)["']/g)].map((m) => m[1]!),
  ];
  return new Set(specs.map((s) => relative(ROOT, resolve(dirname(join(ROOT, file)), s))));
}

/** `text` with line comments dropped, so an import's clause reads on one line's worth of regex. */
function codeOfImports(text: string): string {
  return text.replace(/^\s*\/\/.*$/gm, "");
}

/** The test files a module's text names with `Tested by tests/…_test.ts`. */
function namedTests(text: string): string[] {
  return text.split("\n").filter((l) => /\bTested by\b/.test(l)).flatMap((l) =>
    [...l.matchAll(/\btests\/[\w./-]+_test\.ts\b/g)].map((m) => m[0])
  );
}

/** Why `module` (a path under the repo) follows the rule, or the problem with it. */
function standing(module: string): { ok: true; by: string } | { ok: false; why: string } {
  const text = readFileSync(join(ROOT, module), "utf8");
  const named = namedTests(text);
  for (const t of named) {
    if (!existsSync(join(ROOT, t))) return { ok: false, why: `names ${t}, which does not exist` };
    if (!importsOf(t).has(module)) return { ok: false, why: `names ${t}, which does not import it` };
  }
  const sameNamed = `tests/${module.slice("src/".length, -".ts".length)}_test.ts`;
  if (existsSync(join(ROOT, sameNamed))) return { ok: true, by: sameNamed };
  if (named.length > 0) return { ok: true, by: named.join(", ") };
  const logic = logicOf(text);
  if (logic.length === 0) return { ok: true, by: "no logic" };
  return { ok: false, why: `has logic (${logic[0]}) and no ${sameNamed} or "Tested by" line` };
}

describe("codeOf() and logicOf(): what counts as logic", () => {
  it("a module of types, imports, re-exports and literal constants has none", () => {
    const text = [
      'import type { A } from "./a.ts";',
      'export { b } from "./b.ts";',
      "/** doc with a function() call */",
      "export type F = (x: number) => string;",
      "export interface I {",
      "  f(): void;",
      "}",
      'export const NAMES = ["a (b)", `c ${"d"}`] as const;',
      "export const LIMIT = 2 * 60; // seconds => minutes()",
    ].join("\n");
    assert.deepEqual(logicOf(text), []);
  });

  it("a function, a call in a constant, an arrow or a class is logic", () => {
    assert.deepEqual(logicOf("export function f() {\n  return 1;\n}"), ["export function f() {"]);
    assert.deepEqual(logicOf("export const S = z.object({ a: z.string() });"), [
      "export const S = z.object({ a: z.string() });",
    ]);
    assert.deepEqual(logicOf("export const f = (x: number) => x;"), ["export const f = (x: number) => x;"]);
    assert.deepEqual(logicOf("export class C {}"), ["export class C {}"]);
  });

  it("brackets inside strings, templates, regexes and comments do not hide a statement", () => {
    const text = [
      'const A = "{";',
      "const B = `}${'{'}`;",
      "const R = /[}{]/;",
      "/* { */",
      "export function g() {}",
    ].join("\n");
    assert.deepEqual(logicOf(text), ["export function g() {}"]);
  });
});

describe("every module of src/ has its tests where a reader looks", () => {
  const modules = tsFiles(join(ROOT, "src")).map((f) => relative(ROOT, f)).sort();

  it("each has tests/<same path>_test.ts, no logic, or a `Tested by` line naming a test that imports it", () => {
    const missing = modules.filter((m) => !NOT_YET_TESTED.includes(m)).flatMap((m) => {
      const s = standing(m);
      return s.ok ? [] : [`${m}: ${s.why}`];
    });
    assert.deepEqual(missing, []);
  });

  it("the not-yet-tested list holds only modules that exist and still break the rule", () => {
    const stale = NOT_YET_TESTED.filter((m) => !modules.includes(m) || standing(m).ok);
    assert.deepEqual(stale, [], "take these off NOT_YET_TESTED (tests/test_map_test.ts)");
  });
});
