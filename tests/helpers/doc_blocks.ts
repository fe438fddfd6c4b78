/**
 * The fenced blocks of the docs (README.md, docs/*.md) and what each one
 * says it is, by its info string (the words after the opening ```):
 *
 * - `sh`: commands. Every `outerloop …` command in it runs, in order, in the
 *   page's sandbox (the example repo at ~/proj, its contract at
 *   ~/bench.json, the local backend) and must exit 0, 10, 11 or 12 (those of
 *   them the command can give), or the code a trailing `# exit N` names; its
 *   `--json` stdout must fit `outerloop schema output`. Other commands in
 *   the block (git, scp, deno) are shown, not run.
 * - `sh script`: the whole block runs as one bash script in the sandbox and
 *   must exit 0 (a loop, say).
 * - `sh cluster`: commands that need a cluster. Each `outerloop …` command
 *   is read by the CLI's own parser and option checks; `measure` and
 *   `submit` also run through the binary with `--dry-run`.
 * - `text`: output, shown only; a line `$ outerloop …` in it is a command,
 *   checked as a `sh cluster` one is.
 * - `json contract`, `json decision`, `json output=CMD`: must fit that
 *   schema (a contract also the contract's own checks); `json example`:
 *   must be JSON, of no schema of ours (a benchmark's result line).
 *
 * Any other info string, or none, fails the test: a block says what it is.
 */

/** One fenced block of a page. */
export interface DocBlock {
  readonly file: string;
  /** The line of its opening fence, 1-based. */
  readonly line: number;
  /** The info string's words: ["sh", "cluster"], ["json", "output=measure"], ["text"]. */
  readonly info: readonly string[];
  readonly body: string;
}

/** The info strings a block may have. */
export const BLOCK_KINDS: readonly RegExp[] = [
  /^sh$/,
  /^sh script$/,
  /^sh cluster$/,
  /^text$/,
  /^json (contract|decision|example|output=[a-z]+)$/,
];

/** Every fenced block of `markdown`, in order. */
export function fencedBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== fence; i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a fenced block that is never closed`);
    blocks.push({
      file,
      line: start + 1,
      info: open[2]!.trim().split(/\s+/).filter((w) => w !== ""),
      body: body.join("\n"),
    });
  }
  return blocks;
}

/** One command of a shell block: continuation lines joined, with the line it starts on. */
export interface ShellCommand {
  readonly line: number;
  readonly text: string;
}

/** The commands of a block's text, a `\`-ended line joined to the next; blank and comment-only lines dropped. */
export function shellCommands(block: DocBlock): ShellCommand[] {
  const out: ShellCommand[] = [];
  const lines = block.body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = block.line + 1 + i;
    let text = lines[i]!;
    while (text.endsWith("\\") && i + 1 < lines.length) text = text.slice(0, -1) + " " + lines[++i]!.trim();
    if (text.trim() === "" || text.trim().startsWith("#")) continue;
    out.push({ line, text: text.trim() });
  }
  return out;
}

/** An `outerloop` command found in a line: its variable assignments, its words as written, and a trailing `# exit N`. */
export interface OuterloopCommand {
  readonly line: number;
  /** `NAME=value` words before `outerloop`, as written. */
  readonly assignments: string;
  /** The command as written from `outerloop` up to the first `&&`, `||`, `;`, `|` or comment outside quotes. */
  readonly command: string;
  /** The subcommand's name: `measure`, `show`, …; "" for `outerloop --version`. */
  readonly name: string;
  /** The exit code a trailing `# exit N` promises, or null. */
  readonly exit: number | null;
}

/** The `outerloop …` command `cmd` starts with (after `$ ` and `NAME=value` words), or null when it is another program's. */
export function outerloopCommand(cmd: ShellCommand): OuterloopCommand | null {
  const text = cmd.text.replace(/^\$ /, "");
  const m = /^((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)outerloop(\s|$)/.exec(text);
  if (!m) return null;
  const rest = text.slice(m[1]!.length);
  const end = firstUnquoted(rest, ["&&", "||", ";", "|", "#"]);
  const command = rest.slice(0, end).trim();
  const comment = /#\s*exit (\d+)\b/.exec(rest.slice(end));
  const name = command.split(/\s+/)[1] ?? "";
  return {
    line: cmd.line,
    assignments: m[1]!.trim(),
    command,
    name: name.startsWith("-") ? "" : name,
    exit: comment ? Number(comment[1]) : null,
  };
}

/** Where the first of `stops` occurs in `text` outside quotes; text.length when none does. */
function firstUnquoted(text: string, stops: readonly string[]): number {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (stops.some((s) => text.startsWith(s, i)) && (c !== "#" || i === 0 || /\s/.test(text[i - 1]!))) return i;
  }
  return text.length;
}
