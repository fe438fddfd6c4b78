/**
 * The known name a mistyped one was most likely meant to be: a contract's
 * key (`min_efect`), a command (`meassure`), a flag (`--cadidate`). Free of
 * zod and of everything else, so the CLI's root may use it before loading
 * any command.
 *
 * @module
 */

/** The Levenshtein distance of two strings (insertions, deletions and substitutions of one character). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known key closest to `key`, or null when none is close: within a
 * third of the longer name's length (at least 2 edits, so `tolerence` and
 * `min_efect` find theirs), compared without case and with `-` read as `_`.
 */
export function closestKey(key: string, known: readonly string[]): string | null {
  const norm = (s: string) => s.toLowerCase().replaceAll("-", "_");
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(norm(key), norm(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best === null) return null;
  return bestDistance <= Math.max(2, Math.floor(Math.max(key.length, best.length) / 3)) ? best : null;
}
