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
import { climbDeltaFigure } from "./html_climb_deltas.ts";
import { climbValueFigure, type NumberedRun } from "./html_climb_values.ts";
import { escapeHtml, uniqueId } from "./html_escape.ts";
import { badge, dataTable, factsList, htmlPage } from "./html_page.ts";
import { benchmarkDelta, benchmarkValues, type Climb } from "./model.ts";

/**
 * `outerloop report DIR --html FILE`: a climb as a self-contained page — how
 * many runs ended which way, then per benchmark the value over the climb
 * (accepted candidates marked) and each run's difference against min_effect,
 * then every run in a table. Pure: no clock, no network.
 */

/** How many runs ended (or stand) each way, as badges: "3 accept", "1 parked", …. */
function tallyHtml(climb: Climb): string {
  const order = ["accept", "reject", "inconclusive", "parked", "decided", "failed", "cancelled"];
  const counts = new Map<string, number>();
  for (const r of climb) counts.set(outcome(r), (counts.get(outcome(r)) ?? 0) + 1);
  return order.filter((k) => counts.has(k)).map((k) => badge(`${counts.get(k)} ${k}`, k)).join(" ");
}

/** Every run in one table: what `outerloop runs` prints, plus the values; a benchmark column when there are several. */
function runsTable(climb: Climb): string {
  const several = new Set(climb.map((r) => r.benchmark)).size > 1;
  const num = (text: string) => ({ text, num: true });
  const header = ["run", "tag", ...(several ? ["benchmark"] : []), "created (UTC)", "base → candidate", "verdict"]
    .map((text) => ({ text }));
  header.push(num("baseline"), num("candidate"), num("delta"), { text: "interval" }, num("n"), num("wall"));
  header.push({ text: "failure" });
  const rows = climb.map((r, i) => {
    const v = benchmarkValues(r);
    return [
      { text: String(i + 1) },
      { text: r.tag },
      ...(several ? [{ text: r.benchmark }] : []),
      { text: formatTime(r.createdAt) },
      { text: `${shortSha(r.baseSha)} → ${shortSha(r.candidateSha)}` },
      { text: outcome(r) },
      num(formatValue(v.baseline)),
      num(formatValue(v.candidate)),
      num(formatSigned(benchmarkDelta(r))),
      { text: r.interval ? formatInterval(r.interval) : "" },
      num(r.interval ? String(r.interval.n) : ""),
      num(formatDuration(r.wallSeconds)),
      { text: r.failure ?? "" },
    ];
  });
  return dataTable("All runs, oldest first", header, rows);
}

/** The whole page for a climb (oldest first: see `toClimb`); an empty climb says so. */
export function renderClimbHtml(climb: Climb): string {
  const ids = new Set<string>();
  const benchmarks = [...new Set(climb.map((r) => r.benchmark))];
  const title = `Climb${benchmarks.length === 1 ? ` of ${benchmarks[0]}` : ""}: ${climb.length} runs`;
  const out = [`<header><h1>${escapeHtml(title)}</h1><p>${tallyHtml(climb)}</p>`];
  if (climb.length === 0) {
    out.push(`</header><p class="note">No runs in this climb yet.</p>`);
    return htmlPage(title, out.join("\n"));
  }
  const first = climb[0], last = climb[climb.length - 1];
  out.push(
    factsList([
      ["benchmark", benchmarks.join(", ")],
      ["first run", `${formatTime(first?.createdAt ?? "")} UTC (${first?.tag ?? ""})`],
      ["last run", `${formatTime(last?.createdAt ?? "")} UTC (${last?.tag ?? ""})`],
    ]) + "</header>",
  );
  const numbered: NumberedRun[] = climb.map((run, i) => ({ number: i + 1, run }));
  for (const name of benchmarks) {
    const runs = numbered.filter((r) => r.run.benchmark === name);
    const metric = runs[0]?.run.metric ?? "";
    const direction = runs[0]?.run.direction ?? "maximize";
    out.push(`<h2>${escapeHtml(name)}: ${escapeHtml(metric)} (${betterWords(direction)})</h2>`);
    out.push(climbValueFigure(runs, climb.length, uniqueId("climb", name, ids)));
    out.push(`<h2>${escapeHtml(name)}: candidate − baseline per run</h2>`);
    out.push(climbDeltaFigure(runs, climb.length, uniqueId("deltas", name, ids)));
  }
  out.push("<h2>All runs</h2>", runsTable(climb));
  return htmlPage(title, out.join("\n"));
}
