import { formatPercent } from "../text/numbers.ts";
import type { Design } from "../stats/sequential.ts";

/**
 * A headline interval's level, labelled with what the contract asked for
 * and why it differs. A sequential design splits the error budget over its
 * looks (src/stats/sequential.ts), so a look's interval is at a higher level
 * than the contract's confidence — 98.33% under a contract that says 0.95 —
 * which reads as a mistake unless it says so: "98.33% interval (the 95%
 * asked for, adjusted for 3 looks)". A single look's is the level asked for,
 * and says no more.
 */

/** `the 95% asked for, adjusted for 3 looks`; null when the level is the one asked for. */
export function adjustmentWords(level: number, asked: number, looks: number): string | null {
  if (level === asked || looks <= 1) return null;
  return `the ${formatPercent(asked)} asked for, adjusted for ${looks} looks`;
}

/** `98.33% interval (the 95% asked for, adjusted for 3 looks)`, or `95% interval`; `noun` for another word ("CI"). */
export function intervalLabel(level: number, asked: number, looks: number, noun = "interval"): string {
  const head = `${formatPercent(level)} ${noun}`;
  const why = adjustmentWords(level, asked, looks);
  return why === null ? head : `${head} (${why})`;
}

/** The looks of a design that spend α (a look at one pair has no interval, and its share rolls on). */
export function spendingLooks(design: Design): number {
  return design.looks.filter((l) => l.level !== null).length;
}
