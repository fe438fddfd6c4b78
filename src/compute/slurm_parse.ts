/** Pure parsers of scheduler output, exported for tests on string fixtures. */

/** The first line, trimmed; "" for empty output. */
export function firstLine(text: string): string {
  const t = text.trim();
  return t ? (t.split("\n")[0] ?? "").trim() : "";
}

/** The id in `sbatch --parsable` output (`ID` or `ID;cluster`), or null when it is not numeric. */
export function parseSbatchId(stdout: string): string | null {
  const id = (stdout.trim().split(";")[0] ?? "").trim();
  return /^[0-9]+$/.test(id) ? id : null;
}

/** `squeue -o "%i|%j"` lines → name → ids in listed order. */
export function parseActiveJobs(stdout: string): Map<string, string[]> {
  const jobs = new Map<string, string[]>();
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    const bar = line.indexOf("|");
    if (bar <= 0) continue;
    const id = line.slice(0, bar);
    const name = line.slice(bar + 1);
    jobs.set(name, [...(jobs.get(name) ?? []), id]);
  }
  return jobs;
}

/** `sacct -o JobID,State --parsable2` lines → id → state (the first record per id). */
export function parseStates(stdout: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const raw of stdout.split("\n")) {
    const [id, state] = raw.trim().split("|");
    if (!id || !state || states.has(id)) continue;
    states.set(id, state.trim());
  }
  return states;
}
