import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { formatPercent, formatStat } from "../text/numbers.ts";

/** 4 significant digits: noise figures are estimates, not measurements. */
const f = formatStat;

/**
 * A calibration for people: the spread of the A/A differences, the smallest
 * effect found with 80% power at each number of pairs, and the contract keys
 * it suggests, ready to paste.
 */
export function formatCalibration(c: CalibrationRecord): string {
  const level = formatPercent(c.confidence);
  const lines = [
    `calibration of ${c.benchmark} (${c.metric}) at ${c.baseSha.slice(0, 12)}: the base against itself in ${c.n} pairs`,
    `  paired difference: mean ${f(c.mean)}, sd ${f(c.sd)}, ${level} CI [${f(c.lower)}, ${f(c.upper)}]`,
    c.biased
      ? "  warning: the interval excludes 0: the two sides of a pair differ systematically (order, warm caches?)"
      : "  the interval contains 0, as an A/A run should",
    "",
    "  pairs  smallest effect found with 80% power (beyond min_effect)",
    ...c.detectable.map((d) =>
      `  ${String(d.pairs).padStart(5)}  ${f(d.effect)}${d.pairs === 1 ? "  (one pair: no confidence at all)" : ""}`
    ),
    "",
    "suggested contract keys:",
    `  ${
      JSON.stringify({
        min_effect: c.suggestion.minEffect,
        repeats: c.suggestion.repeats,
        max_repeats: c.suggestion.maxRepeats,
      })
    }`,
  ];
  return lines.join("\n") + "\n";
}
