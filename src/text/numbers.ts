/**
 * How numbers read in sentences and tables, the same everywhere a person
 * meets them: a verdict's reasons, the verdict table, `show`, a calibration,
 * `runs` and the reports. The files keep every digit; what a person reads
 * has the digits the data supports:
 *
 * - a **measured value** (a raw result, one pair's difference, a mean of
 *   values, a contract's min_effect): at most `MEASURED_DIGITS` significant
 *   digits, and no more than it needs (`2.98259100001` → `2.98259`,
 *   `0.1 + 0.2` → `0.3`) — `formatMeasured`;
 * - a **difference of two measured values** (one pair's candidate −
 *   baseline): to the decimals those values print with, so it reads as
 *   their subtraction (`13.1453 → 12.4365`: `-0.7087`) — `formatDifference`;
 * - an **estimate with its interval** (a mean improvement or difference and
 *   its confidence interval): every number to the same decimals, those that
 *   give the interval's width two significant digits (width 0.17 → 0.01:
 *   `0.75 [0.66, 0.84]`; width 8.6 → 0.1: `8.1 [3.8, 12.4]`) — the digits
 *   past those are noise — and the mean to at least two significant digits
 *   of its own (`3000 [-170000, 180000]`). A zero-width interval (a deterministic benchmark),
 *   or one so narrow that this would pass `MEASURED_DIGITS`, reads as
 *   measured values do — `formatEstimate`.
 *
 * `formatNumber` (12 significant digits) stays the rule of the decision's
 * stored sentences (`reasons`, pinned word for word) and of the decision
 * check's messages, which compare values exactly; nothing else uses it.
 */

/** A measured value shows at most this many significant digits. */
export const MEASURED_DIGITS = 6;

/** The stored sentences' rule: 12 significant digits, so `12.3 - 12.1` reads `0.2`, not `0.20000000000000107`. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

/** An estimate (a mean, an interval's end, a spread): 4 significant digits; the files keep every digit. */
export function formatStat(x: number): string {
  return String(Number(x.toPrecision(4)));
}

/** `text` with a leading "+" when `x` is above zero, so "+2" and "-0.5" read as changes. */
function withSign(x: number, text: string, signed: boolean): string {
  return signed && x > 0 && !/^[0.]+$/.test(text) ? `+${text}` : text;
}

/** "-0", "-0.00": a negative number that rounds to zero reads as zero. */
function noNegativeZero(text: string): string {
  return /^-[0.]+$/.test(text) ? text.slice(1) : text;
}

/**
 * A measured value: at most `MEASURED_DIGITS` significant digits, trailing
 * zeros dropped (`13.466943`, `0.75`, `4e+15` reads `4000000000000000`).
 * `signed` puts a "+" before a positive value.
 */
export function formatMeasured(x: number, signed = false): string {
  if (!Number.isFinite(x)) return String(x);
  return withSign(x, noNegativeZero(String(Number(x.toPrecision(MEASURED_DIGITS)))), signed);
}

/**
 * A difference of measured values (`of`: the two it was taken between) to
 * the decimals `formatMeasured` prints the larger of them with — no digit
 * finer than the values themselves show. `signed` puts a "+" before a
 * positive difference.
 */
export function formatDifference(difference: number, of: readonly number[], signed = false): string {
  const largest = Math.max(...of.map(Math.abs).filter(Number.isFinite));
  if (!Number.isFinite(difference) || !(largest > 0)) return formatMeasured(difference, signed);
  const decimals = MEASURED_DIGITS - 1 - Math.floor(Math.log10(largest));
  return withSign(difference, fixed(difference, decimals).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, ""), signed);
}

/** The three numbers of an estimate, each as text. */
export interface EstimateText {
  readonly mean: string;
  readonly lower: string;
  readonly upper: string;
}

/**
 * The decimals that give `width` two significant digits (0.17 → 2, 8.6 → 1,
 * 1234 → −2: round to hundreds); null when the width is zero or not finite,
 * or when those decimals would give `largest` more than `MEASURED_DIGITS`
 * significant digits (an interval narrower than the value's own precision).
 */
export function intervalDecimals(width: number, largest: number): number | null {
  if (!(width > 0) || !Number.isFinite(width) || !Number.isFinite(largest)) return null;
  const decimals = 1 - Math.floor(Math.log10(width));
  const magnitude = largest > 0 ? Math.floor(Math.log10(largest)) : 0;
  return magnitude + decimals + 1 > MEASURED_DIGITS ? null : decimals;
}

/** `x` rounded to `decimals` (negative: to tens, hundreds, …), as text. */
function fixed(x: number, decimals: number): string {
  if (decimals >= 0) return noNegativeZero(x.toFixed(Math.min(100, decimals)));
  const unit = 10 ** -decimals;
  return noNegativeZero(String(Math.round(x / unit) * unit));
}

/**
 * An estimate and its interval, printed alike to the decimals the interval's
 * width supports (`intervalDecimals`), or as measured values when it has no
 * width to go by. `signed` puts a "+" before each positive number, as a
 * change reads: `+0.75 [+0.66, +0.84]`.
 */
export function formatEstimate(e: { mean: number; lower: number; upper: number }, signed = false): EstimateText {
  const largest = Math.max(Math.abs(e.mean), Math.abs(e.lower), Math.abs(e.upper));
  const decimals = intervalDecimals(e.upper - e.lower, largest);
  const one = (x: number, d: number | null) =>
    d === null ? formatMeasured(x, signed) : withSign(x, fixed(x, d), signed);
  return {
    mean: one(e.mean, meanDecimals(e.mean, decimals)),
    lower: one(e.lower, decimals),
    upper: one(e.upper, decimals),
  };
}

/**
 * The decimals of an estimate's mean: the interval's (`decimals`), or more
 * when those would leave the mean fewer than two significant digits of its
 * own — a very wide interval must not round its mean to `0`
 * (`3000 [-170000, 180000]`, not `0 [-170000, 180000]`). A mean of exactly 0
 * keeps the interval's decimals.
 */
function meanDecimals(mean: number, decimals: number | null): number | null {
  if (decimals === null || mean === 0 || !Number.isFinite(mean)) return decimals;
  return Math.max(decimals, 1 - Math.floor(Math.log10(Math.abs(mean))));
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
