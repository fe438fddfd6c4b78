import assert from "node:assert/strict";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readTextFile, TextFileError } from "../../src/fs/read_text_file.ts";
import { tempDir } from "../helpers/temp.ts";

/** The problem `readTextFile(path, maxBytes)` refuses with. */
function problem(path: string, maxBytes?: number) {
  try {
    readTextFile(path, maxBytes);
  } catch (err) {
    assert.ok(err instanceof TextFileError, String(err));
    return err.problem;
  }
  throw new Error(`readTextFile accepted ${JSON.stringify(path)}`);
}

describe("readTextFile()", () => {
  it("reads a small UTF-8 file whole", () => {
    const path = join(tempDir("text-file-"), "t.txt");
    writeFileSync(path, "héllo 𝔘\n");
    assert.equal(readTextFile(path), "héllo 𝔘\n");
    assert.equal(readTextFile(path, 12), "héllo 𝔘\n", "12 bytes is exactly the limit");
    assert.equal(problem(path, 11).kind, "too-large");
  });

  it("reads no further than the limit from a file that stat calls empty (/proc)", {
    skip: existsSync("/proc/self/status") ? false : "no /proc here",
  }, () => {
    assert.equal(statSync("/proc/self/status").size, 0);
    assert.deepEqual(problem("/proc/self/status", 16), {
      kind: "too-large",
      what: "it is larger than the 16 bytes allowed",
    });
  });

  it("calls a path through a file, or to nothing, missing", () => {
    const path = join(tempDir("text-file-"), "t.txt");
    writeFileSync(path, "x");
    assert.deepEqual(problem(join(path, "sub")), { kind: "missing", what: "no such file" });
    assert.deepEqual(problem(join(path + "-not")), { kind: "missing", what: "no such file" });
  });

  it("names the line of the first byte that is not UTF-8", () => {
    const path = join(tempDir("text-file-"), "t.txt");
    writeFileSync(path, Buffer.concat([Buffer.from("a\nb\nc"), Buffer.from([0xc3]), Buffer.from("\n")]));
    assert.deepEqual(problem(path), {
      kind: "not-utf8",
      what: "it is not UTF-8 text: byte 0xC3 at offset 5 (line 3) is not valid UTF-8",
    });
  });
});
