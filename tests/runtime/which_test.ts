import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { which } from "../../src/runtime/which.ts";
import { tempDir } from "../helpers/temp.ts";

describe("which()", () => {
  const root = tempDir("which-");
  const [a, b] = [join(root, "a"), join(root, "b")];
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(a, "tool"), "");
  chmodSync(join(a, "tool"), 0o644);
  writeFileSync(join(b, "tool"), "#!/bin/sh\n");
  chmodSync(join(b, "tool"), 0o755);
  mkdirSync(join(b, "dir"));

  it("searches the path in order, skipping what is not an executable file", () => {
    assert.equal(which("tool", `${a}:${b}`, root), join(b, "tool"));
    assert.equal(which("dir", b, root), null);
    assert.equal(which("nope", `${a}:${b}`, root), null);
  });

  it("takes a name with a slash as a path, relative to cwd, without searching", () => {
    assert.equal(which("./tool", a, b), join(b, "tool"));
    assert.equal(which("b/tool", "", root), join(b, "tool"));
    assert.equal(which("a/tool", b, root), null);
  });

  it("reads an empty path entry as nothing, not the cwd", () => {
    assert.equal(which("tool", `:${a}`, b), null);
  });
});
