import { renderColumns } from "../text/columns.ts";
import {
  benchmarkLabel,
  differenceCells,
  formatDuration,
  formatTime,
  improvementCells,
  outcome,
  pairsCell,
  severalMetrics,
  shortSha,
} from "./format.ts";
import type { Climb, RunSummary } from "./model.ts";

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
 * state (the run's standing: `decided`, `calibrated`, `parked` with `(live)` /
 * `(nothing live)` when liveness was asked, `measuring`, `interrupted`,
 * `failed`, `cancelled`), verdict (`accept (disputed)` when decision.json does
 * not follow from the run's results), the benchmark's mean **difference**
 * (candidate − baseline, the raw sign), its **improvement** (positive =
 * better) with the improvement's interval, n, and the wall time. A
 * `benchmark` column (`name: metric`) is added when the climb measures more
 * than one. A failed run's failure and a disputed run's disagreement follow
 * its row, indented. An empty climb gives the header alone.
 */
export function formatRunsTable(climb: Climb): string {
  const several = severalMetrics(climb);
  const header = [
    "tag",
    ...(several ? ["benchmark"] : []),
    "created (UTC)",
    "base -> candidate",
    "state",
    "verdict",
    "difference",
    "improvement",
    "improvement interval",
    "n",
    "wall",
  ];
  const offset = several ? 1 : 0;
  const right = new Set([5 + offset, 6 + offset, 8 + offset, 9 + offset]);
  const rows = climb.map((r) => {
    const imp = improvementCells(r);
    return [
      oneLine(r.tag),
      ...(several ? [oneLine(benchmarkLabel(r))] : []),
      formatTime(r.createdAt),
      `${shortSha(r.baseSha)} -> ${shortSha(r.candidateSha)}`,
      stateCell(r),
      r.verdict === null ? "" : outcome(r),
      differenceCells(r).mean,
      imp.mean,
      imp.interval,
      pairsCell(r),
      formatDuration(r.wallSeconds),
    ];
  });
  const lines = renderColumns(header, rows, right).split("\n");
  const out = [lines[0] ?? ""];
  climb.forEach((r, i) => {
    out.push(lines[i + 1] ?? "");
    if (r.failure !== null && r.failure !== "") out.push(`  failed: ${oneLine(r.failure)}`);
    for (const d of r.disputes) out.push(`  disputed: ${oneLine(d)}`);
  });
  return out.join("\n") + "\n";
}
