import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

/**
 * The layers of src/, lowest first: a file may import its own layer and the
 * ones below it, never one above — so no two folders depend on each other
 * (docs/design.md, "Layers", says what each owns). The files at src/'s top
 * are placed one by one: the error and exit-code vocabulary sit at the
 * bottom, the log above the runtime it writes through, the entry at the top.
 * Static and dynamic imports (`import("…")`) and type imports all count.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["errors.ts", "exit_codes.ts"],
  ["runtime"],
  ["log.ts", "version.ts", "fs", "text", "schema", "stats"],
  ["compute"],
  ["dispatch"],
  ["contract"],
  ["measure"],
  ["verdict"],
  ["rundir"],
  ["plan"],
  ["evaluation"],
  ["output"],
  ["report"],
  ["views"],
  ["run"],
  ["cli"],
  ["main.ts"],
];

const SRC = join(import.meta.dirname!, "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  );
}

/** The unit of a file under src/: its top folder, or its own name for a file at the top. */
function unitOf(file: string): string {
  return relative(SRC, file).split("/")[0]!;
}

function layerOf(unit: string): number {
  const i = LAYERS.findIndex((l) => l.includes(unit));
  assert.ok(i >= 0, `src/${unit} has no layer: place it in LAYERS (tests/layering_test.ts) and docs/design.md`);
  return i;
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [
    ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)";/gm),
    ...text.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g),
  ];
  return found.map((m) => resolve(file, "..", m[1]!));
}

describe("the layers of src/", () => {
  it("every import goes to the importer's own layer or one below it", () => {
    const upward: string[] = [];
    for (const file of files(SRC)) {
      const from = unitOf(file);
      for (const target of imports(file)) {
        const to = unitOf(target);
        if (to !== from && layerOf(to) > layerOf(from)) {
          upward.push(`${relative(SRC, file)} imports ${relative(SRC, target)} (${from} is below ${to})`);
        }
      }
    }
    assert.deepEqual(upward, []);
  });

  it("places every folder and top file of src/", () => {
    for (const e of readdirSync(SRC)) layerOf(e);
  });
});
