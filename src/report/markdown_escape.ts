// Tested by tests/report/markdown_test.ts
/**
 * Making arbitrary text safe in GitHub-flavoured Markdown while keeping it
 * readable as plain text (the summary also lands in agents' logs): a
 * benchmark name, tag or reason may hold `|`, a newline, `*`, a backtick or
 * `<`, and none of them may break a table row, start emphasis or be taken
 * for an HTML tag.
 */

/**
 * Free text for a paragraph or list item: backslash-escapes `\`, `` ` ``,
 * `*` and `<` (the characters that would change its rendering mid-line) and
 * folds newlines into spaces, so the text stays one paragraph or item.
 */
export function mdText(text: string): string {
  return text.replace(/[\\`*<]/g, (c) => `\\${c}`).replace(/\s*[\r\n]+\s*/g, " ");
}

/**
 * Text for a table cell: as `mdText`, with `|` escaped and a newline kept as
 * `<br>` (a raw newline would end the row). Use it on a cell built with
 * `mdCode` too: GFM reads `\|` as a pipe inside a code span in a table.
 */
export function mdCell(text: string): string {
  return text.split(/\r\n|\r|\n/).map((line) => mdText(line)).join("<br>").replace(/\|/g, "\\|");
}

/** Escapes only `|` and newlines: for a cell already escaped or built from code spans and numbers. */
export function mdPipes(cell: string): string {
  return cell.replace(/\|/g, "\\|").replace(/\r\n|\r|\n/g, " ");
}

/**
 * A code span holding `text` verbatim (names, tags, shas): the fence is one
 * backtick longer than the longest run inside, padded with a space when the
 * text starts or ends with a backtick; newlines become spaces.
 */
export function mdCode(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat === "" ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** One Markdown table row from already escaped cells. */
function mdRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** A Markdown table: header, alignment row (`right` columns right-aligned) and rows of escaped cells. */
export function mdTable(header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number>) {
  const align = header.map((_, i) => (right.has(i) ? "---:" : "---"));
  return [mdRow(header), mdRow(align), ...rows.map(mdRow)].join("\n");
}

/** ` in <unit>` after a metric's name when its contract gives a unit (escaped), "" without. */
export function unitWords(run: { readonly unit: string | null }): string {
  return run.unit === null ? "" : ` in ${mdText(run.unit)}`;
}
