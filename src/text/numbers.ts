/**
 * How numbers read in sentences and tables, the same everywhere a person
 * meets them: a verdict's reasons, the verdict table, `show`, a calibration,
 * `runs` and the reports.
 */

/** A measured value: 12 significant digits, so `12.3 - 12.1` reads `0.2`, not `0.20000000000000107`. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** An estimate (a mean, an interval's end, a spread): 4 significant digits; the files keep every digit. */
export function formatStat(x: number): string {
  return String(Number(x.toPrecision(4)));
}

/** A level as a percentage: 0.95 → "95%", 0.98333… → "98.33%". */
export function formatPercent(level: number): string {
  return `${Number((level * 100).toPrecision(4))}%`;
}

/** A share of a limit, in whole percent: 0.953 → "95%". */
export function formatShare(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** A chance: "37.2%", "less than 0.1%". */
export function formatChance(p: number): string {
  return p < 0.001 ? "less than 0.1%" : `${Number((p * 100).toFixed(1))}%`;
}
