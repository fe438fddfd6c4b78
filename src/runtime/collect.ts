/**
 * Reads a byte stream to text, unless `abandon` settles first: a child that
 * escaped its group kill can hold the pipe open forever, and the caller must
 * not hang on it past the walltime.
 */
export async function collectText(
  stream: ReadableStream<Uint8Array> | null | undefined,
  abandon: Promise<void>,
): Promise<{ text: string; abandoned: boolean }> {
  if (!stream) return { text: "", abandoned: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const stop = abandon.then(() => "abandon" as const);
  let abandoned = false;
  for (;;) {
    const next = await Promise.race([reader.read(), stop]);
    if (next === "abandon") {
      abandoned = true;
      reader.cancel().catch(() => {});
      break;
    }
    if (next.done) break;
    chunks.push(next.value);
  }
  return { text: new TextDecoder().decode(concat(chunks)), abandoned };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
