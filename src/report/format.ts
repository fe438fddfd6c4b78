import { formatNumber, formatPercent } from "../text/numbers.ts";
import type { PairedInterval, RunSummary } from "./model.ts";

/**
 * The words and numbers every report shares — the text table, the Markdown
 * and the HTML — so a run reads the same in all three. Nothing here depends
 * on the clock or the local time zone.
 */

/** How many characters of a sha the reports show: enough to be unique in any real repository. */
export const SHORT_SHA = 10;

/** The first `SHORT_SHA` characters of a sha. */
export function shortSha(sha: string): string {
  return sha.slice(0, SHORT_SHA);
}

/** A value for a table: 12 significant digits (`formatNumber`), "" for a missing one. */
export function formatValue(n: number | null | undefined): string {
  return n === null || n === undefined ? "" : formatNumber(n);
}

/** A change with its sign, so "+2" and "-0.5" read as changes; "" for a missing one. */
export function formatSigned(n: number | null | undefined): string {
  if (n === null || n === undefined) return "";
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

/** An interval as `[lower, upper] 95%`. */
export function formatInterval(i: PairedInterval): string {
  return `[${formatSigned(i.lower)}, ${formatSigned(i.upper)}] ${formatPercent(i.confidence)}`;
}

/**
 * A timestamp as `YYYY-MM-DD HH:MM` in UTC: short, sortable and the same on
 * every machine. An unreadable one is shown as given.
 */
export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 16).replace("T", " ");
}

/** A duration as `42s`, `3m05s`, `2h04m` or `3d02h`: two units at most; "" for a missing one. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${two(Math.floor(s / 60) % 60)}m`;
  return `${Math.floor(s / 86400)}d${two(Math.floor(s / 3600) % 24)}h`;
}

/** Which way is better, in words: "higher is better" / "lower is better". */
export function betterWords(direction: RunSummary["direction"]): string {
  return direction === "maximize" ? "higher is better" : "lower is better";
}

/** The verdict, or the state when there is none yet: `accept`, `parked`, `failed`, …. */
export function outcome(run: RunSummary): string {
  return run.verdict ?? run.state;
}
