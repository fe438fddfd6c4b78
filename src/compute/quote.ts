// Tested by tests/compute/job_spec_test.ts
/** POSIX shell quoting of one word, as Python's `shlex.quote`. */
export function quoteWord(word: string): string {
  if (word === "") return "''";
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** A command line for `JobSpec.command` that `sh -c` splits back into `parts`. */
export function quoteCommand(parts: readonly string[]): string {
  return parts.map(quoteWord).join(" ");
}
