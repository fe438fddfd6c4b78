import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/**
 * Reads a small UTF-8 text file a user named (a contract), refusing by kind
 * anything that is not one, before it can hurt: a FIFO would block the read
 * until some writer came, a device such as /dev/zero never ends (memory grows
 * without bound), a huge file is read no further than `maxBytes` + 1. The
 * text must be UTF-8 without a byte-order mark — JSON.parse would otherwise
 * fail on the mark with a message about an invisible character, and decoding
 * would silently turn a Latin-1 byte into U+FFFD.
 */

/** Why a file was refused: the kind, for the caller's fix, and what the file is, as a phrase (`"it is a FIFO…"`). */
export interface TextFileProblem {
  readonly kind: "missing" | "not-a-file" | "too-large" | "bom" | "not-utf8" | "unreadable";
  readonly what: string;
}

/** A file refused by `readTextFile`; the caller turns it into its own error, naming the file and the fix. */
export class TextFileError extends Error {
  override name = "TextFileError";
  readonly problem: TextFileProblem;
  constructor(problem: TextFileProblem, options?: ErrorOptions) {
    super(problem.what, options);
    this.problem = problem;
  }
}

/** 1 MiB: a contract is a few hundred bytes. */
const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** What a non-regular file is, for a message; null for a regular file. */
export function fileKind(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * The text of the regular file at `path`, at most `maxBytes` bytes of UTF-8
 * without a byte-order mark; a `TextFileError` saying what is wrong otherwise.
 * Symlinks are followed. A non-regular file is refused from its `stat`,
 * before it is opened (opening a device can have effects, a FIFO can block).
 */
export function readTextFile(path: string, maxBytes = MAX_TEXT_FILE_BYTES): string {
  const refuse = (kind: TextFileProblem["kind"], what: string, cause?: unknown): never => {
    throw new TextFileError({ kind, what }, cause === undefined ? undefined : { cause });
  };
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR"
      ? refuse("missing", "no such file", err)
      : refuse("unreadable", (err as Error).message, err);
  }
  const kind = fileKind(st);
  if (kind !== null) refuse("not-a-file", `it is ${kind}, not a regular file`);
  if (st.size > maxBytes) refuse("too-large", `it is ${st.size} bytes, more than the ${limit(maxBytes)} allowed`);

  let bytes: Uint8Array;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: should it have become a FIFO since the stat, the open must not wait for a writer
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const again = fileKind(fstatSync(fd));
    if (again !== null) refuse("not-a-file", `it is ${again}, not a regular file`);
    bytes = readAtMost(fd, maxBytes + 1);
  } catch (err) {
    if (err instanceof TextFileError) throw err;
    return refuse("unreadable", (err as Error).message, err);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // a file that grew since the stat, or that stat calls empty (/proc): read no further than the limit
  if (bytes.length > maxBytes) refuse("too-large", `it is larger than the ${limit(maxBytes)} allowed`);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    refuse("bom", "it starts with a UTF-8 byte-order mark (EF BB BF)");
  }
  const text = new TextDecoder("utf-8").decode(bytes);
  const bad = firstInvalidByte(bytes, text);
  if (bad !== null) {
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, bad));
    const line = before.split("\n").length;
    const byte = bytes[bad]!.toString(16).toUpperCase().padStart(2, "0");
    refuse("not-utf8", `it is not UTF-8 text: byte 0x${byte} at offset ${bad} (line ${line}) is not valid UTF-8`);
  }
  return text;
}

function limit(maxBytes: number): string {
  return maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`;
}

/** Up to `n` bytes from `fd`, stopping at the end of the file. */
function readAtMost(fd: number, n: number): Uint8Array {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, null);
    if (k === 0) break;
    got += k;
  }
  return buf.subarray(0, got);
}

/**
 * The offset of the first byte that is not valid UTF-8, or null. `text` is
 * `bytes` decoded with replacement: every U+FFFD in it is either an invalid
 * sequence or a real U+FFFD (EF BF BD), and the bytes before the first
 * invalid one re-encode exactly, which gives its offset.
 */
function firstInvalidByte(bytes: Uint8Array, text: string): number | null {
  const encoder = new TextEncoder();
  let offset = 0; // bytes of text.slice(0, done)
  let done = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) {
    offset += encoder.encode(text.slice(done, i)).length;
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
    offset += 3;
    done = i + 1;
  }
  return null;
}
