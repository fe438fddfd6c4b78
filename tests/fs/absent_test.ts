import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { isAbsent } from "../../src/fs/absent.ts";
import { tempDir } from "../helpers/temp.ts";

describe("isAbsent()", () => {
  it("is true for a path nothing is at, false for a file or a directory", () => {
    const dir = tempDir("absent-");
    writeFileSync(join(dir, "f"), "x");
    mkdirSync(join(dir, "d"));
    assert.equal(isAbsent(join(dir, "missing")), true);
    assert.equal(isAbsent(join(dir, "f")), false);
    assert.equal(isAbsent(join(dir, "d")), false);
  });

  it("is false when the stat fails for another reason (a symlink loop), so the read that follows says why", () => {
    const dir = tempDir("absent-");
    symlinkSync("loop", join(dir, "loop"));
    assert.equal(isAbsent(join(dir, "loop")), false);
    assert.throws(() => readFileSync(join(dir, "loop"), "utf8"), /ELOOP/);
  });
});
