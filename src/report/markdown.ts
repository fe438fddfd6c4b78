import { formatNumber, formatPercent } from "../text/numbers.ts";
import {
  betterWords,
  formatDuration,
  formatInterval,
  formatSigned,
  formatTime,
  formatValue,
  outcome,
  shortSha,
} from "./format.ts";
import { mdCell, mdCode, mdPipes, mdTable, mdText } from "./markdown_escape.ts";
import { pairLabel, pairRows } from "./measures.ts";
import { benchmarkDelta, benchmarkValues, type Climb, type RunSummary } from "./model.ts";

/**
 * `outerloop report … --md`: a compact Markdown summary to paste into a pull
 * request or an agent's log — the verdict first, then the numbers it rests
 * on, then the reasons. Every name and sentence from the run is escaped
 * (`markdown_escape.ts`), so no value can break a table or the page.
 */

/** The one-line facts under a heading: tag, shas, times. */
function runFacts(r: RunSummary): string {
  const parts = [
    `Run ${mdCode(r.tag)}: base ${mdCode(shortSha(r.baseSha))} -> candidate ${mdCode(shortSha(r.candidateSha))}`,
    `created ${formatTime(r.createdAt)} UTC`,
  ];
  if (r.wallSeconds !== null) parts.push(`decided after ${formatDuration(r.wallSeconds)}`);
  return parts.join(", ") + ".";
}

/**
 * One run: a heading with the benchmark and the verdict (or the state while
 * there is none), the metric and min_effect, a table of every measure's value
 * with the delta beside each candidate-side measure, the benchmark's interval
 * and n when the run has one, the failure of a failed run, and the reasons.
 */
export function runMarkdown(r: RunSummary): string {
  const out = [
    `### ${mdCode(r.benchmark)}: ${outcome(r)}`,
    "",
    `Metric ${mdCode(r.metric)} (${betterWords(r.direction)}), min_effect ${formatNumber(r.minEffect)}. ` +
    runFacts(r),
  ];
  if (r.failure !== null && r.failure !== "") out.push("", `**Failed:** ${mdText(r.failure)}`);
  const { rows, others } = pairRows(r.values, r.deltas);
  if (rows.length > 0) {
    const cells = rows.map((row) => [
      mdPipes(`${row.sibling ? "sibling " : ""}${mdCode(row.sibling ? row.group : r.benchmark)}`) + pairLabel(row),
      formatValue(row.base),
      formatValue(row.candidate),
      formatSigned(row.delta),
    ]);
    out.push("", mdTable(["benchmark", "baseline", "candidate", "delta"], cells, new Set([1, 2, 3])));
  }
  if (others.length > 0) {
    out.push("", "Other values: " + others.map(([name, v]) => `${mdCode(name)} ${formatNumber(v)}`).join(", ") + ".");
  }
  const i = r.interval;
  if (i !== null) {
    out.push(
      "",
      `Candidate - baseline over ${i.n} pairs: mean ${formatSigned(i.mean)}, ` +
        `${formatPercent(i.confidence)} interval [${formatSigned(i.lower)}, ${formatSigned(i.upper)}].`,
    );
  }
  if (r.reasons.length > 0) out.push("", ...r.reasons.map((reason) => `- ${mdText(reason)}`));
  return out.join("\n") + "\n";
}

/** "3 accept, 1 reject, 2 parked": how many runs ended (or stand) each way, in a fixed order. */
function tally(climb: Climb): string {
  const order = ["accept", "reject", "inconclusive", "parked", "decided", "failed", "cancelled"];
  const counts = new Map<string, number>();
  for (const r of climb) counts.set(outcome(r), (counts.get(outcome(r)) ?? 0) + 1);
  return order.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k}`).join(", ");
}

/**
 * A climb: a heading with the number of runs and how they ended, then one
 * row per run, oldest first — tag, created, shas, verdict (or state), the
 * benchmark's baseline, candidate and delta, the interval and n when present,
 * and the wall time. A benchmark column appears when the climb has several.
 */
export function climbMarkdown(climb: Climb): string {
  const benchmarks = [...new Set(climb.map((r) => r.benchmark))];
  const several = benchmarks.length > 1;
  const what = benchmarks.length === 1 ? ` of ${mdCode(benchmarks[0] ?? "")}` : "";
  const head = `### Climb${what}: ${climb.length} run${climb.length === 1 ? "" : "s"}` +
    (climb.length > 0 ? ` (${tally(climb)})` : "");
  if (climb.length === 0) return head + "\n";
  const header = ["#", "tag", ...(several ? ["benchmark"] : []), "created (UTC)", "base -> candidate", "verdict"];
  header.push("baseline", "candidate", "delta", "interval", "n", "wall");
  const first = header.indexOf("baseline");
  const right = new Set([0, first, first + 1, first + 2, first + 4, first + 5]);
  const rows = climb.map((r, index) => {
    const v = benchmarkValues(r);
    return [
      String(index + 1),
      mdPipes(mdCode(r.tag)),
      ...(several ? [mdPipes(mdCode(r.benchmark))] : []),
      formatTime(r.createdAt),
      `${mdCode(shortSha(r.baseSha))} -> ${mdCode(shortSha(r.candidateSha))}`,
      r.failure ? `${outcome(r)}: ${mdCell(r.failure)}` : outcome(r),
      formatValue(v.baseline),
      formatValue(v.candidate),
      formatSigned(benchmarkDelta(r)),
      r.interval ? formatInterval(r.interval) : "",
      r.interval ? String(r.interval.n) : "",
      formatDuration(r.wallSeconds),
    ];
  });
  return [head, "", mdTable(header, rows, right)].join("\n") + "\n";
}
