import { renderColumns } from "../text/columns.ts";
import { shorten } from "../text/shorten.ts";
import {
  benchmarkLabel,
  differenceCells,
  formatDuration,
  formatTime,
  improvementCells,
  pairsCell,
  severalMetrics,
  shortSha,
  verdictWords,
} from "./format.ts";
import { type Climb, type CrashSummary, isCalibration, type RunSummary } from "./model.ts";
import { calibrationCells } from "./calibration_pairs.ts";
import { roundVerdictWords, roundWhat } from "./round_words.ts";
import { anyRelative, armCells, armDifferenceCells, armVerdictWords, formatRelative } from "./format.ts";
import { shownEstimate, standingWords } from "./round_model.ts";
import { setAsideClause } from "./set_aside.ts";

/**
 * `outerloop runs DIR` for people: one line per run, oldest first, in the
 * style of the verdict table (src/report/verdict_table.ts) — no colours, no box characters, columns
 * padded to their widest cell — so it reads the same in a terminal, a Slurm
 * log and an email. Machines use `runsJson` instead.
 */

/** The widest a verdict cell (a crash's cause) or a label gets: the whole text is in `show` and `--json`. */
const VERDICT_WIDTH = 48;
const LABEL_WIDTH = 40;

/** A cell on one line: a newline or tab in a tag or a failure would break the columns. */
function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, " ");
}

/** The state, and for an open run whose jobs were looked up (`runs --live`), whether any is live. */
function stateCell(r: RunSummary): string {
  if (r.live === null || r.state !== "parked") return r.state;
  if (!r.live) return "parked (nothing live)";
  return r.wakeLive === false ? "parked (live, no wake)" : "parked (live)";
}

/**
 * The runs table: tag, created (UTC), base -> candidate (10-character shas),
 * state (the run's standing: `decided`, `calibrated`, `parked` with `(live)` /
 * `(nothing live)` when liveness was asked, `measuring`, `interrupted`,
 * `failed`, `cancelled`), verdict (`accept (disputed)` when decision.json does
 * not follow from the run's results), the benchmark's mean **difference**
 * (candidate − baseline, the raw sign), its **improvement** (positive =
 * better) with the improvement's interval, the relative change
 * (`1.134× faster [1.09, 1.19]`, `+16.6% [+12.3%, +21.0%]`; a column only
 * when some run has one), n, and the wall time. A
 * `benchmark` column (`name: metric`) is added when the climb measures more
 * than one. A failed run's failure and a disputed run's disagreement follow
 * its row, indented. A round (K candidates against one baseline) is a row of
 * its own — `base -> K candidates`, its state and its verdict with the
 * winner (`accept: winner candidate-2`, `reject: no winner`) — and under it
 * one row per candidate, indented: its measure name, its sha and ref, its
 * standing (`winner`, `dropped at pair 2: …`, `decided: …`, `in play`), its
 * verdict and the difference, improvement and interval of the estimate shown
 * for it (the confirmation's for the screen's choice, else the screen's)
 * with its n. A calibration (`base (A/A)`) shows in the verdict column its
 * sd and suggested min_effect (`biased:` first when its A/A interval
 * excludes 0), its A/A mean and interval in the improvement columns and its
 * pairs as n. Once some run has a label (`--label`, else the candidate
 * commit's subject), a last column gives it, a round's on each candidate's
 * row. A verdict (a crash's cause) longer than 48 characters and a label
 * longer than 40 are cut with "…" (`shorten`): one long cause must not
 * widen every row; `show` and `--json` keep the whole text. An empty climb
 * gives the header alone.
 */
/** The line under a crashed run or candidate: which measure crashed, in which job (its cause is in the verdict cell). */
function crashNote(c: CrashSummary): string {
  return `  crashed: measure ${oneLine(c.measure)}${c.jobId === null ? "" : ` in job ${oneLine(c.jobId)}`}`;
}

export function formatRunsTable(climb: Climb): string {
  const several = severalMetrics(climb);
  // a relative column only when some run has a relative figure (a metric that can be <= 0 has none)
  const relatives = anyRelative(climb);
  const rel = (text: string) => (relatives ? [text] : []);
  // a label column (what each candidate tries) once some run has one
  const labels = climb.some((r) => r.label !== "" || (r.round?.arms ?? []).some((a) => a.label !== ""));
  const lab = (text: string) => (labels ? [shorten(text, LABEL_WIDTH)] : []);
  // the unit heads the value columns when every run measures in the same one
  const units = new Set(climb.filter((r) => !isCalibration(r)).map((r) => r.unit));
  const unit = units.size === 1 ? [...units][0] ?? null : null;
  const inUnit = (header: string) => (unit === null ? header : `${header} (${unit})`);
  const header = [
    "tag",
    ...(several ? ["benchmark"] : []),
    "created (UTC)",
    "base -> candidate",
    "state",
    "verdict",
    inUnit("difference"),
    inUnit("improvement"),
    "improvement interval",
    ...rel("relative"),
    "n",
    "wall",
    ...lab("label"),
  ];
  const offset = several ? 1 : 0;
  const tail = offset + (relatives ? 1 : 0);
  const right = new Set([5 + offset, 6 + offset, 8 + tail, 9 + tail]);
  const rows: string[][] = [];
  const after: string[][] = [];
  for (const r of climb) {
    const imp = improvementCells(r);
    const round = r.round;
    if (isCalibration(r)) {
      const c = calibrationCells(r.calibration);
      rows.push([
        oneLine(r.tag),
        ...(several ? [oneLine(benchmarkLabel(r))] : []),
        formatTime(r.createdAt),
        `${shortSha(r.baseSha)} (A/A)`,
        stateCell(r),
        c.words,
        "",
        c.mean,
        c.interval,
        ...rel(""),
        c.n,
        formatDuration(r.wallSeconds),
        ...lab(""),
      ]);
      after.push(r.failure !== null && r.failure !== "" ? [`  failed: ${oneLine(r.failure)}`] : []);
      continue;
    }
    rows.push([
      oneLine(r.tag),
      ...(several ? [oneLine(benchmarkLabel(r))] : []),
      formatTime(r.createdAt),
      round === null
        ? `${shortSha(r.baseSha)} -> ${shortSha(r.candidateSha)}`
        : `${shortSha(r.baseSha)} -> ${roundWhat(round)}`,
      stateCell(r),
      round === null
        ? (r.verdict === null ? "" : shorten(verdictWords(r), VERDICT_WIDTH))
        : shorten(roundVerdictWords(r), VERDICT_WIDTH),
      round === null ? differenceCells(r).mean : "",
      round === null ? imp.mean : "",
      round === null ? imp.interval : "",
      ...rel(round === null ? formatRelative(r.relative, r.direction, r.unit, true) : ""),
      round === null ? pairsCell(r) : "",
      formatDuration(r.wallSeconds),
      ...lab(round === null ? r.label : ""),
    ]);
    after.push([]);
    for (const a of round?.arms ?? []) {
      const e = shownEstimate(a);
      const cells = armCells(e);
      rows.push([
        `  ${a.measure}`,
        ...(several ? [""] : []),
        "",
        oneLine(`-> ${shortSha(a.sha)} (${a.ref})`),
        oneLine(standingWords(a)),
        shorten(armVerdictWords(a), VERDICT_WIDTH),
        armDifferenceCells(e, r.direction).mean,
        cells.mean,
        cells.interval,
        ...rel(formatRelative(e?.relative, r.direction, r.unit, true)),
        e === null ? "" : String(e.estimate.n),
        "",
        ...lab(a.label),
      ]);
      after.push(a.verdict === "crashed" && a.crash ? [crashNote(a.crash)] : []);
    }
    // a failure or a dispute follows the run's rows (a round's candidates included)
    const notes = after.at(-1)!;
    if (r.failure !== null && r.failure !== "") notes.push(`  failed: ${oneLine(r.failure)}`);
    if (round === null && r.verdict === "crashed" && r.crash) notes.push(crashNote(r.crash));
    const aside = round === null ? r.improvement?.setAside ?? [] : [];
    if (aside.length > 0) notes.push(`  ${setAsideClause(aside, r.improvement?.setAsideWhy)}`);
    for (const d of r.disputes) notes.push(`  disputed: ${oneLine(d)}`);
  }
  const lines = renderColumns(header, rows, right).split("\n");
  const out = [lines[0] ?? ""];
  rows.forEach((_, i) => {
    out.push(lines[i + 1] ?? "");
    out.push(...after[i]!);
  });
  return out.join("\n") + "\n";
}
