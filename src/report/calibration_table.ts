// Tested by tests/evaluation/calibration_test.ts
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { betterWords } from "../stats/improvement.ts";
import type { Spread } from "../stats/power.ts";
import { formatNumber, formatPercent, formatStat } from "../text/numbers.ts";

/** 4 significant digits: noise figures are estimates, not measurements. */
const f = formatStat;

/** A spread's line: the improvement of a pair's second measure over its first, with the A/A interval. */
function spreadLine(s: Spread, level: string): string {
  return `mean ${f(s.mean)}, sd ${f(s.sd)}, ${level} CI [${f(s.lower)}, ${f(s.upper)}]`;
}

/** The suggestion's relative form, when the benchmark's every value is positive. */
function relativeLines(c: CalibrationRecord): string[] {
  const r = c.relativeSuggestion;
  if (r === null) return [];
  return [
    `  or relative (every value is positive): ${JSON.stringify({ min_effect: r.minEffect })}`,
    ...Object.entries(r.siblings).flatMap(([name, t]) =>
      t === null ? [] : [`  sibling ${name}, relative: ${JSON.stringify({ tolerance: t })}`]
    ),
  ];
}

/**
 * A calibration for people: the spread of the A/A improvements (the
 * benchmark's, then each sibling's in its own direction), the improvement a
 * fixed design of each table size accepts with 80% power, the contract keys
 * it suggests, ready to paste, and the sentence that says how they were
 * derived. Every number is of the improvement, so mirrored data (`t`
 * minimized, `−t` maximized) prints the same numbers.
 */
export function formatCalibration(c: CalibrationRecord): string {
  const level = formatPercent(c.confidence);
  const falseAccepts = formatPercent((1 - c.confidence) / 2);
  const minEffect = c.suggestion.minEffect;
  const sibs = Object.entries(c.siblings);
  const lines = [
    `calibration of ${c.benchmark} (${c.metric}, ${betterWords(c.direction)}) at ${c.baseSha.slice(0, 12)}: ` +
    `the base against itself in ${c.n} pairs`,
    `  improvement of a pair's second measure over its first (positive = better): ${spreadLine(c, level)}`,
    c.biased
      ? "  warning: the interval excludes 0: the two sides of a pair differ systematically (order, warm caches?)"
      : "  the interval contains 0, as an A/A run should",
    ...sibs.flatMap(([name, s]) => [
      `  sibling ${name} (${s.metric}, ${betterWords(s.direction)}): ${spreadLine(s, level)}`,
      ...(s.biased ? [`  warning: sibling ${name}'s interval excludes 0: its two sides differ systematically`] : []),
    ]),
    "",
    `  fixed designs, one look at ${level} (false accepts at most ${falseAccepts}): the improvement found with 80% power`,
    `  pairs  beyond min_effect  at min_effect ${formatNumber(minEffect)}`,
    ...c.detectable.map((d) => {
      const row = `  ${String(d.pairs).padStart(5)}  ${f(d.effect).padEnd(16)}  ${f(minEffect + d.effect)}`;
      // files written before the table left one pair out carry its row: it had no interval behind it
      return d.pairs === 1 ? `${row}  (one pair: no interval, no guarantee)` : row;
    }),
    "",
    "suggested contract keys:",
    `  ${
      JSON.stringify({
        min_effect: minEffect,
        repeats: c.suggestion.repeats,
        max_repeats: c.suggestion.maxRepeats,
      })
    }`,
    ...Object.entries(c.suggestion.siblings).map(([name, s]) =>
      `  sibling ${name}: ${JSON.stringify({ tolerance: s.tolerance })}`
    ),
    ...relativeLines(c),
    c.derivation === null
      ? "(this calibration.json predates the derivation note: its min_effect came from the A/A interval's end)"
      : `how: ${c.derivation}`,
  ];
  return lines.join("\n") + "\n";
}
