// Tested by tests/compute/slurm_parse_test.ts
/**
 * Seconds in a sacct Elapsed field: `MM:SS`, `HH:MM:SS` or `D-HH:MM:SS`.
 * Null for anything else — an unknown field never becomes a number.
 */
export function parseElapsed(text: string): number | null {
  let days = 0;
  let rest = text;
  const dash = text.indexOf("-");
  if (dash >= 0) {
    const dayPart = text.slice(0, dash);
    if (!isDigits(dayPart)) return null;
    days = Number(dayPart);
    rest = text.slice(dash + 1);
  }
  const parts = rest.split(":");
  if (parts.length > 3 || !parts.every(isDigits)) return null;
  const nums = parts.map(Number);
  while (nums.length < 3) nums.unshift(0);
  const [hours = 0, minutes = 0, seconds = 0] = nums;
  return days * 86400 + hours * 3600 + minutes * 60 + seconds;
}

/** Python's str.isdigit for ASCII input: non-empty, all 0-9. */
function isDigits(s: string): boolean {
  return /^[0-9]+$/.test(s);
}
