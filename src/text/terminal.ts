/**
 * Text that a job, a benchmark or a scheduler wrote, made fit for a terminal.
 * A benchmark's output reaches the user inside error messages (the tail of its
 * log), and so does a scheduler command's stderr: as written, an ESC sequence
 * in it could clear the screen, retitle the terminal or hide the lines around
 * it, and one 50 MB line would be a 50 MB message. Every such text passes
 * through this module on its way into a message — and only such text: our own
 * output (a progress line, colours) is not escaped.
 */

/**
 * The characters a terminal acts on rather than prints: the C0 controls but
 * tab and newline, DEL, the C1 controls (U+0080–U+009F: U+009B is a CSI on
 * some terminals), and the bidirectional overrides and isolates that reorder
 * what is displayed ("Trojan Source"), plus the Unicode line separators.
 */
// deno-lint-ignore no-control-regex -- control characters are what this matches
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character but newline and tab written as an
 * escape a person can read: `\x1b` (ESC), `\x07` (BEL), `\r`, `\b`, `\x9b`,
 * `\u202e`. Idempotent: what it returns holds no control character.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (c === "\r") return "\\r";
    if (c === "\b") return "\\b";
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
    return `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

const encoder = new TextEncoder();

/** The UTF-8 size of `text`. */
function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** A byte count for a message: `812 bytes`, `64.0 KB`, `49.9 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? "" : "s"}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The longest prefix of `text` that fits in `maxBytes` of UTF-8, never
 * splitting a character.
 */
function headBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = byteLength(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * One line, escaped, and cut to `maxBytes` (its head kept) with a note saying
 * how much of it was cut.
 */
export function capLine(line: string, maxBytes: number): string {
  const total = byteLength(line);
  if (total <= maxBytes) return escapeControls(line);
  const head = headBytes(line, maxBytes);
  return `${escapeControls(head)}… [${formatBytes(total - byteLength(head))} more of this line cut]`;
}

/** Limits of `safeTail`. */
export interface TailLimits {
  /** At most this many lines (the last ones). */
  readonly lines: number;
  /** Each line cut to this many bytes. */
  readonly lineBytes: number;
  /** The whole tail (after the line cuts) at most this many bytes: earlier lines are dropped. */
  readonly totalBytes: number;
}

/** What `safeTail` gives: the lines to show, and a note saying what was left out (null when nothing was). */
export interface SafeTail {
  readonly lines: readonly string[];
  readonly note: string | null;
}

/**
 * The last lines of `text` for a message: escaped, each line capped, the
 * whole capped, and a note saying what was left out (`cutBefore` bytes the
 * caller did not even read count as left out).
 */
export function safeTail(text: string, limits: TailLimits, cutBefore = 0): SafeTail {
  const all = text.split("\n");
  let lines = all.slice(-limits.lines).map((l) => capLine(l, limits.lineBytes));
  let dropped = all.length - lines.length;
  let size = lines.reduce((n, l) => n + byteLength(l) + 1, 0);
  while (lines.length > 1 && size > limits.totalBytes) {
    size -= byteLength(lines[0]!) + 1;
    lines = lines.slice(1);
    dropped++;
  }
  const notes: string[] = [];
  if (cutBefore > 0) notes.push(`${formatBytes(cutBefore)} of earlier output`);
  if (dropped > 0) notes.push(`${dropped} earlier line${dropped === 1 ? "" : "s"}`);
  return { lines, note: notes.length > 0 ? `[${notes.join(" and ")} not shown]` : null };
}

/**
 * A whole text (a scheduler's stderr) for a message: escaped, and capped to
 * `maxBytes` with a note; newlines and tabs kept.
 */
export function safeText(text: string, maxBytes = 4000): string {
  const total = byteLength(text);
  if (total <= maxBytes) return escapeControls(text);
  const head = headBytes(text, maxBytes);
  return `${escapeControls(head)}… [${formatBytes(total - byteLength(head))} more cut]`;
}
