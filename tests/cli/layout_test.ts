import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { COMMANDS } from "../../src/cli/app.ts";

/**
 * The CLI's shape, read from the sources: commands are leaves (they never
 * import one another), the root reaches a command only through a loader
 * (so a wake's `resume` evaluates no other command), and nothing below the
 * CLI imports it.
 */
const SRC = join(import.meta.dirname!, "..", "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  );
}

/** The files a source imports statically (`import … from`, `export … from`), as absolute paths or bare names. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)";/gm)].map((m) =>
    m[1]!.startsWith(".") ? resolve(file, "..", m[1]!) : m[1]!
  );
}

const inside = (path: string, dir: string) => !relative(join(SRC, dir), path).startsWith("..");

describe("the CLI's layout", () => {
  it("has commands that import no other command", () => {
    for (const file of files(join(SRC, "cli", "commands"))) {
      const others = staticImports(file).filter((p) => inside(p, "cli/commands"));
      assert.deepEqual(others, [], relative(SRC, file));
    }
  });

  it("loads a command only through the root's lazy subcommands", () => {
    for (const file of files(join(SRC, "cli")).filter((f) => !inside(f, "cli/commands"))) {
      const commands = staticImports(file).filter((p) => inside(p, "cli/commands"));
      assert.deepEqual(commands, [], relative(SRC, file));
    }
    const app = readFileSync(join(SRC, "cli", "app.ts"), "utf8");
    const loaded = [...app.matchAll(/import\("\.\/commands\/(\w+)\.ts"\)/g)].map((m) => m[1]);
    const declared = files(join(SRC, "cli", "commands")).map((f) => f.split("/").at(-1)!.replace(/\.ts$/, ""));
    assert.deepEqual([...loaded].sort(), declared.sort());
  });

  it("keeps everything below the CLI free of it", () => {
    for (const file of files(SRC).filter((f) => !inside(f, "cli") && !f.endsWith("/main.ts"))) {
      const cli = staticImports(file).filter((p) => inside(p, "cli"));
      assert.deepEqual(cli, [], relative(SRC, file));
    }
  });
});

describe("the commands' args, as citty's parser reads them", () => {
  it("name every flag in kebab-case, two letters or more, and only a boolean no-…", async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      assert.equal(command.meta.name, entry.name);
      for (const [name, def] of Object.entries(command.args)) {
        const where = `${entry.name}: ${name}`;
        if (def.type === "positional") {
          assert.match(name, /^[A-Z_|]+$/, where);
          continue;
        }
        // a one-letter key in citty's result is a short option (refused); `--no-x` is x = false to citty
        assert.match(name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, where);
        assert.ok(name.length >= 2, where);
        if (name.startsWith("no-")) assert.equal(def.type, "boolean", where);
        assert.ok(!("default" in def) && !("alias" in def), `${where}: citty's default or alias is not used`);
      }
    }
  });
});
