import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { atomicWriteFile, atomicWriteJson } from "../../src/fs/atomic_write.ts";
import { tempDir } from "../helpers/temp.ts";

describe("atomicWriteFile()", () => {
  it("writes the whole text and leaves no temporary file beside it", () => {
    const dir = tempDir("atomic-");
    const path = join(dir, "run.json");
    atomicWriteFile(path, "one");
    atomicWriteFile(path, "two");
    assert.equal(readFileSync(path, "utf8"), "two");
    assert.deepEqual(readdirSync(dir), ["run.json"]);
  });

  it("fails without leaving a temporary file when the target cannot be replaced", () => {
    const dir = tempDir("atomic-");
    mkdirSync(join(dir, "taken"));
    mkdirSync(join(dir, "taken", "x"));
    assert.throws(() => atomicWriteFile(join(dir, "taken"), "text"));
    assert.deepEqual(readdirSync(dir), ["taken"]);
  });
});

describe("atomicWriteJson()", () => {
  it("writes indented JSON with a trailing newline", () => {
    const path = join(tempDir("atomic-"), "a.json");
    atomicWriteJson(path, { a: [1] });
    assert.equal(readFileSync(path, "utf8"), '{\n  "a": [\n    1\n  ]\n}\n');
  });
});
