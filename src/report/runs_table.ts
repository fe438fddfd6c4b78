import { renderColumns } from "../text/columns.ts";
import { formatDuration, formatInterval, formatSigned, formatTime, shortSha } from "./format.ts";
import { benchmarkDelta, type Climb, type RunSummary } from "./model.ts";

/**
 * `outerloop runs DIR` for people: one line per run, oldest first, in the
 * style of the verdict table (src/report/verdict_table.ts) — no colours, no box characters, columns
 * padded to their widest cell — so it reads the same in a terminal, a Slurm
 * log and an email. Machines use `runsJson` instead.
 */

/** A cell on one line: a newline or tab in a tag or a failure would break the columns. */
function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, " ");
}

/** The state, and for an open run whose jobs were looked up (`runs --live`), whether any is live. */
function stateCell(r: RunSummary): string {
  if (r.live === null || r.state !== "parked") return r.state;
  return r.live ? "parked (live)" : "parked (nothing live)";
}

/**
 * The runs table: tag, created (UTC), base -> candidate (10-character shas),
 * state (with `(live)` / `(nothing live)` for an open run when liveness was
 * asked), verdict, the benchmark's delta, its interval and n when the run has
 * one, and the wall time. A `benchmark` column is added when the climb holds
 * more than one benchmark. A failed run's one-line failure follows its row,
 * indented. An empty climb gives the header alone.
 */
export function formatRunsTable(climb: Climb): string {
  const several = new Set(climb.map((r) => r.benchmark)).size > 1;
  const header = [
    "tag",
    ...(several ? ["benchmark"] : []),
    "created (UTC)",
    "base -> candidate",
    "state",
    "verdict",
    "delta",
    "interval",
    "n",
    "wall",
  ];
  const offset = several ? 1 : 0;
  const right = new Set([5 + offset, 7 + offset, 8 + offset]);
  const rows = climb.map((r) => [
    oneLine(r.tag),
    ...(several ? [oneLine(r.benchmark)] : []),
    formatTime(r.createdAt),
    `${shortSha(r.baseSha)} -> ${shortSha(r.candidateSha)}`,
    stateCell(r),
    r.verdict ?? "",
    formatSigned(benchmarkDelta(r)),
    r.interval ? formatInterval(r.interval) : "",
    r.interval ? String(r.interval.n) : "",
    formatDuration(r.wallSeconds),
  ]);
  const lines = renderColumns(header, rows, right).split("\n");
  const out = [lines[0] ?? ""];
  climb.forEach((r, i) => {
    out.push(lines[i + 1] ?? "");
    if (r.failure !== null && r.failure !== "") out.push(`  failed: ${oneLine(r.failure)}`);
  });
  return out.join("\n") + "\n";
}
