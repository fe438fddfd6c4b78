import type { CliIo } from "./io.ts";

/** A progress line longer than this is cut: a line that wraps cannot be rewritten in place. */
const MAX_WIDTH = 150;

/**
 * Where `wait` writes its progress, on stderr. On a terminal, one line
 * rewritten in place (a carriage return, the line, blanks over what the
 * last one left; no colours, no other escape codes). Elsewhere — a pipe, a
 * file, a Slurm log — a plain line each time what it says changes, so a log
 * grows by one line per change, not one per poll.
 */
export class ProgressWriter {
  readonly #io: CliIo;
  readonly #terminal: boolean;
  #shown = 0;
  #lastKey: string | null = null;

  constructor(io: CliIo, terminal: boolean) {
    this.#io = io;
    this.#terminal = terminal;
  }

  /** Shows `line`; `key` is what counts as a change (the line without its clock). */
  update(line: string, key: string): void {
    if (this.#terminal) {
      const cut = [...line].length > MAX_WIDTH ? [...line].slice(0, MAX_WIDTH - 1).join("") + "…" : line;
      const width = [...cut].length;
      this.#io.stderr(`\r${cut}${" ".repeat(Math.max(0, this.#shown - width))}`);
      this.#shown = width;
      return;
    }
    if (key === this.#lastKey) return;
    this.#lastKey = key;
    this.#io.stderr(`outerloop: ${line}\n`);
  }

  /** Ends the live line (a newline on a terminal) so what follows starts on its own line. */
  end(): void {
    if (this.#terminal && this.#shown > 0) this.#io.stderr("\n");
    this.#shown = 0;
  }
}
