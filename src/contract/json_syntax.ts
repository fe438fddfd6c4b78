/**
 * Where a JSON text stops being JSON, as a line and column and what was
 * expected there. The runtimes' parsers word their errors each their own
 * way (Bun's names no place at all), so the place is found by a scan of
 * our own, run only once `JSON.parse` has refused the text.
 */

/** The first syntax error of a JSON text: its line and column (from 1) and what is wrong there. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

class Stop extends Error {
  constructor(readonly at: number, readonly problem: string) {
    super(problem);
  }
}

/** The first syntax error of `text`, or null when it is JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  const s = new Scan(text);
  try {
    s.ws();
    s.value();
    s.ws();
    if (s.i < text.length) s.stop("text after the JSON value; a file holds one value");
    return null;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const before = text.slice(0, err.at);
    const line = before.split("\n").length;
    // a column counts characters, not UTF-16 halves
    const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
    return { line, column, problem: err.problem };
  }
}

class Scan {
  i = 0;
  constructor(readonly t: string) {}

  stop(problem: string, at = this.i): never {
    throw new Stop(at, problem);
  }

  /** What stands at the scan's place, for a message. */
  found(): string {
    if (this.i >= this.t.length) return "the end of the file";
    return JSON.stringify([...this.t.slice(this.i, this.i + 2)][0]!);
  }

  ws(): void {
    while (this.i < this.t.length && " \t\n\r".includes(this.t[this.i]!)) this.i++;
  }

  value(): void {
    const c = this.t[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const word of ["true", "false", "null"]) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    const quote = c === "'" ? " (JSON strings take double quotes)" : "";
    this.stop(`expected a value, found ${this.found()}${quote}`);
  }

  object(): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === "}") {
      this.i++;
      return;
    }
    for (;;) {
      if (this.t[this.i] !== '"') {
        const comma = this.t[this.i] === "}" ? " (JSON allows no comma before })" : "";
        this.stop(`expected a key in double quotes, found ${this.found()}${comma}`);
      }
      this.string();
      this.ws();
      if (this.t[this.i] !== ":") this.stop(`expected ":" after the key, found ${this.found()}`);
      this.i++;
      this.ws();
      this.value();
      this.ws();
      if (this.t[this.i] === "}") {
        this.i++;
        return;
      }
      if (this.t[this.i] !== ",") this.stop(`expected "," or "}" after a value, found ${this.found()}`);
      this.i++;
      this.ws();
    }
  }

  array(): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === "]") {
      this.i++;
      return;
    }
    for (;;) {
      if (this.t[this.i] === "]") this.stop('expected a value, found "]" (JSON allows no comma before ])');
      this.value();
      this.ws();
      if (this.t[this.i] === "]") {
        this.i++;
        return;
      }
      if (this.t[this.i] !== ",") this.stop(`expected "," or "]" after a value, found ${this.found()}`);
      this.i++;
      this.ws();
    }
  }

  string(): void {
    const start = this.i++;
    for (;;) {
      if (this.i >= this.t.length) this.stop("a string that is never closed", start);
      const c = this.t[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c < " ") this.stop(`a control character in a string (write it as ${JSON.stringify(c)})`);
      if (c === "\\") {
        const e = this.t[this.i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 2, this.i + 6))) {
            this.stop("a \\u escape without four hex digits");
          }
          this.i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.stop(`an unknown escape \\${e ?? ""} in a string`);
        this.i += 2;
        continue;
      }
      this.i++;
    }
  }

  number(): void {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.t.slice(this.i));
    if (m === null) this.stop(`a malformed number, found ${this.found()} after "-"`, this.i + 1);
    this.i += m[0].length;
    const next = this.t[this.i];
    if (next !== undefined && /[0-9.eE]/.test(next)) this.stop(`a malformed number (${m[0]}${next}…)`);
  }
}
