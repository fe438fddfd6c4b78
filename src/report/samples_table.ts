import type { SampleSpread } from "../stats/samples.ts";
import { renderColumns } from "../text/columns.ts";
import { formatMeasured } from "../text/numbers.ts";

/**
 * `show`'s samples table: for each measure whose benchmark reported its
 * metric as an array (several samples of one run), how many samples, the
 * smallest, the median and the largest, as measured values (text/numbers.ts)
 * — the spread the measure's one value (their summary) was taken from.
 */
export function formatSamplesTable(samples: Readonly<Record<string, SampleSpread>>): string {
  const rows = Object.entries(samples).map(([name, s]) => [
    name,
    String(s.n),
    formatMeasured(s.min),
    formatMeasured(s.median),
    formatMeasured(s.max),
  ]);
  return renderColumns(["measure", "n", "min", "median", "max"], rows, new Set([1, 2, 3, 4])) + "\n";
}

/**
 * The heading of the samples table: what a measure's value is made of them,
 * `samples (each measure's value is their median):`, naming a sibling whose
 * summary differs (`…their median; sibling lat's their min):`).
 */
export function samplesHeading(summary: string, siblings: readonly { name: string; summary: string }[]): string {
  const others = siblings.filter((s) => s.summary !== summary).map((s) => `; sibling ${s.name}'s their ${s.summary}`);
  return `samples (each measure's value is their ${summary}${others.join("")}):`;
}
