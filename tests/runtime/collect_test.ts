import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { collectText } from "../../src/runtime/collect.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const never = new Promise<void>(() => {});

describe("collectText()", () => {
  it("reads a stream to its end as text, a character split across chunks included", async () => {
    const e = bytes("é");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes("ab"));
        c.enqueue(e.subarray(0, 1));
        c.enqueue(e.subarray(1));
        c.close();
      },
    });
    assert.deepEqual(await collectText(stream, never), { text: "abé", abandoned: false });
  });

  it("is empty with no stream", async () => {
    assert.deepEqual(await collectText(null, never), { text: "", abandoned: false });
  });

  it("gives up on a stream held open once abandon settles, keeping what came", async () => {
    let release!: () => void;
    const abandon = new Promise<void>((r) => (release = r));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes("partial"));
      },
    });
    const reading = collectText(stream, abandon);
    setTimeout(release, 20);
    assert.deepEqual(await reading, { text: "partial", abandoned: true });
  });
});
