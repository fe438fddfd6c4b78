// Tested by tests/report/runs_table_test.ts
/**
 * Plain-text columns for people (the verdict table, `show`, `runs`): each
 * column padded to its widest cell, counted in code points, the `right`
 * columns right-aligned, two spaces between columns, trailing blanks
 * trimmed. No colours and no box characters, so a table reads the same in a
 * terminal, a Slurm log file and an email.
 */
export function renderColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number>,
): string {
  const width = (s: string) => [...s].length;
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => {
      const pad = " ".repeat((widths[i] ?? 0) - width(c));
      return right.has(i) ? pad + c : c + pad;
    }).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
