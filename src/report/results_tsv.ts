import { armMean } from "../evaluation/side_means.ts";
import { BASE_ARM, CANDIDATE_ARM } from "../measure/measure_name.ts";
import { formatMeasured } from "../text/numbers.ts";
import { type Climb, isCalibration, type RunSummary } from "./model.ts";

/**
 * `outerloop runs DIR --tsv`: the climb as autoresearch keeps its
 * `results.tsv` — tab-separated, a header row, one row per experiment:
 *
 * ```
 * commit	val_bpb	status	description
 * a1b2c3d	0.9979	keep	baseline
 * b2c3d4e	0.9932	keep	increase LR to 0.04
 * c3d4e5f	1.005	discard	switch to GeLU activation
 * d4e5f6g	0.000000	crash	double model width (eval exited with code 1)
 * ```
 *
 * - `commit`: the candidate's sha, 7 characters;
 * - the metric's column, headed by its name (`value` when the climb measures
 *   several): the candidate's mean over every pair it measured, to 6
 *   significant digits; `0.000000` for a crash, as autoresearch writes it;
 * - `status`: `keep` (accepted: a round's winner), `discard` (rejected,
 *   inconclusive, a round's other candidates, a disputed decision) or
 *   `crash` (the candidate's eval crashed);
 * - `description`: its label (`--label`, else its commit's subject; the ref
 *   when neither is known), and for a crash its cause, whole.
 *
 * The first row is the first run's baseline (`keep`, `baseline`), its mean
 * over its pairs. A round gives a row per candidate. Only decided runs are
 * rows: one still open, failed or cancelled, and a calibration, are not
 * experiments with an outcome. Tabs and newlines in a text become spaces.
 */
export function formatResultsTsv(climb: Climb): string {
  const decided = climb.filter((r) => !isCalibration(r) && r.verdict !== null);
  const metrics = new Set(decided.map((r) => r.metric));
  const column = metrics.size === 1 ? [...metrics][0]! : "value";
  const rows: string[][] = [["commit", column, "status", "description"]];
  const first = decided[0];
  if (first !== undefined) {
    rows.push([short(first.baseSha), value(armMean(first.values, BASE_ARM)), "keep", "baseline"]);
  }
  for (const r of decided) {
    if (r.round === null) {
      rows.push(row(r, CANDIDATE_ARM, r.candidateSha ?? "", r.label, r.verdict === "crashed", r.verdict === "accept"));
      continue;
    }
    for (const a of r.round.arms) {
      rows.push(row(r, a.arm, a.sha, a.label || a.ref, a.verdict === "crashed", a.winner, a.crash?.cause));
    }
  }
  return rows.map((cells) => cells.map(cell).join("\t")).join("\n") + "\n";
}

/** One candidate's row. */
function row(
  r: RunSummary,
  arm: number,
  sha: string,
  label: string,
  crashed: boolean,
  kept: boolean,
  cause = r.crash?.cause,
): string[] {
  const disputed = r.disputes.length > 0;
  const status = crashed ? "crash" : kept && !disputed ? "keep" : "discard";
  const what = label === "" ? short(sha) : label;
  // whole, never cut: a program reads the cell, and a loop's own row (examples/loop/) holds the cause whole
  const why = crashed && cause ? ` (${cause})` : disputed ? " (disputed decision)" : "";
  return [short(sha), crashed ? "0.000000" : value(armMean(r.values, arm)), status, what + why];
}

function short(sha: string): string {
  return sha.slice(0, 7);
}

function value(v: number | null): string {
  return v === null ? "" : formatMeasured(v);
}

/** A cell on one line with no tab in it. */
function cell(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ");
}
