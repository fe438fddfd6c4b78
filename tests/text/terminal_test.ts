import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { capLine, escapeControls, formatBytes, safeTail, safeText } from "../../src/text/terminal.ts";

describe("escapeControls()", () => {
  it("writes ESC, BEL, CR, backspace, DEL, C1 and bidi controls as escapes, keeping newlines and tabs", () => {
    assert.equal(
      escapeControls("a\tb\nc\u001b[31md\u0007e\rf\bg\u007fh\u009bi\u202ej\u2066k\u0000"),
      "a\tb\nc\\x1b[31md\\x07e\\rf\\bg\\x7fh\\x9bi\\u202ej\\u2066k\\x00",
    );
  });

  it("leaves printable text, accents and emoji alone and is idempotent", () => {
    const text = "naïve — 数据 🎉 \\x1b";
    assert.equal(escapeControls(text), text);
    const once = escapeControls("\u001b]0;title\u0007");
    assert.equal(escapeControls(once), once);
  });
});

describe("capLine() and safeText()", () => {
  it("keeps a short line whole and cuts a long one at a character boundary, saying how much", () => {
    assert.equal(capLine("short", 10), "short");
    assert.equal(capLine("ééééé", 5), "éé… [6 bytes more of this line cut]");
    assert.equal(safeText("x".repeat(3000) + "\u001b", 2000), "x".repeat(2000) + "… [1001 bytes more cut]");
    assert.equal(safeText("sbatch: error: \u001b[2J"), "sbatch: error: \\x1b[2J");
  });

  it("formats byte counts", () => {
    assert.equal(formatBytes(1), "1 byte");
    assert.equal(formatBytes(812), "812 bytes");
    assert.equal(formatBytes(65 * 1024), "65.0 KB");
    assert.equal(formatBytes(50 * 1024 * 1024), "50.0 MB");
  });
});

describe("safeTail()", () => {
  it("keeps the last lines, caps each and all, and notes what was left out", () => {
    const text = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(30)).join("\n");
    assert.deepEqual(safeTail(text, { lines: 3, lineBytes: 10, totalBytes: 1000 }, 0), {
      lines: [5, 6, 7].map((i) => `${i}`.repeat(10) + "… [20 bytes more of this line cut]"),
      note: "[5 earlier lines not shown]",
    });
    const t = safeTail(text, { lines: 8, lineBytes: 100, totalBytes: 70 }, 2048);
    assert.deepEqual(t.lines, ["6".repeat(30), "7".repeat(30)]);
    assert.equal(t.note, "[2.0 KB of earlier output and 6 earlier lines not shown]");
    assert.deepEqual(safeTail("one\ntwo", { lines: 5, lineBytes: 10, totalBytes: 100 }), {
      lines: ["one", "two"],
      note: null,
    });
  });
});
