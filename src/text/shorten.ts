/**
 * A cell of a table on one line and at most `max` characters: newlines and
 * tabs become spaces, and a longer text is cut at a word where one is near,
 * ending with "…". One long crash cause or commit subject must not widen a
 * column on every row of `runs`; the whole text stays in `show` and `--json`.
 * Counts code points, so a cut never splits a surrogate pair.
 */
export function shorten(text: string, max: number): string {
  const line = text.replace(/[\r\n\t]+/g, " ").trim();
  const chars = [...line];
  if (chars.length <= max) return line;
  const head = chars.slice(0, max - 1).join("");
  const space = head.lastIndexOf(" ");
  // a word boundary in the last quarter, else a hard cut
  const cut = space >= Math.floor((max - 1) * 0.75) ? head.slice(0, space) : head;
  return cut.trimEnd() + "…";
}
