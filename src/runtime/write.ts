import { writeSync } from "node:fs";

/**
 * Writes text to our stdout (fd 1) or stderr (fd 2) synchronously and whole,
 * without `process.stdout` / `process.stderr`: in a compiled Bun binary their
 * first use loads the Node stream and tty machinery, which costs more than
 * the rest of a `--version` or of reading a decided run. A pipe or terminal
 * that is momentarily full (EAGAIN on a non-blocking descriptor) is waited
 * out, and a short write continues where it stopped, so nothing is lost or
 * interleaved within one call.
 */
export function writeFd(fd: 1 | 2, text: string): void {
  let bytes = new TextEncoder().encode(text);
  while (bytes.length > 0) {
    let n: number;
    try {
      n = writeSync(fd, bytes);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); // the reader catches up
        continue;
      }
      if (code === "EPIPE") return; // the reader is gone (`| head`): nothing left to tell
      throw err;
    }
    bytes = bytes.subarray(n);
  }
}
