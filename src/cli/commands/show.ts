import { formatEarlierAttempts } from "../../views/earlier_attempts.ts";
import { describeHolder } from "../../rundir/lock_file.ts";
import { EXIT } from "../../exit_codes.ts";
import { escapeControls } from "../../text/terminal.ts";
import { formatProvenanceTable } from "../../report/provenance_table.ts";
import type { Standing } from "../../evaluation/standing.ts";
import { evaluateRun } from "../../evaluation/evaluate.ts";
import { readRunSnapshot } from "../../evaluation/snapshot.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { formatDecisionTable, formatMeasureStates, type MetricWords } from "../../report/verdict_table.ts";
import { formatUsageTable } from "../../report/usage_table.ts";
import { jsonFlag, runDirPositional } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { formatRoundTable } from "../../report/round_table.ts";
import { formatCalibration } from "../../report/calibration_table.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import { defineLeaf } from "../command.ts";
import { formatSamplesTable, samplesHeading } from "../../report/samples_table.ts";
import { type RunView, viewRun } from "../../views/run_view.ts";
import { runViewJson } from "../../views/run_view_json.ts";

export interface ShowOptions {
  readonly runDir: RunDir;
  readonly json: boolean;
}

/** `outerloop show RUN_DIR`: where a run stands, changing nothing. */
export const showCommand = defineLeaf<ShowOptions>({
  meta: {
    name: "show",
    description:
      "Where a run stands: each measure's state, resource use and samples, the wake job, a round's candidates, the verdict; changes nothing",
  },
  args: {
    ...runDirPositional,
    ...jsonFlag,
  },
  details: [
    "Asks the scheduler at most one queue listing and two sacct (states, resource use), like a pass of `resume`.",
    "Warns when a measure used more than 80% of its walltime or its memory. A failed or cancelled run",
    `says when and why; show itself exits ${EXIT.ok} (\`wait\` and \`resume\` exit ${EXIT.evalFailed} for them). A round (K candidates against`,
    "one baseline) lists every arm with its state (in play, dropped at pair n and why, decided), its interval on",
    "the screen's pairs and, for the screen's choice, on the confirmation's, and names the winner or why there",
    "is none; --json gives it as `round` (decision.json's, or where an open round stands).",
  ],

  parse(args) {
    return { runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"), json: args.on("json") };
  },

  async execute(o, { io, compute, now }) {
    const e = evaluateRun(readRunSnapshot(o.runDir));
    const v = await viewRun(e, compute(e.snapshot.record.compute, e.snapshot.record.cluster), now);
    outLine(io, o.json ? JSON.stringify(runViewJson(v)) : showText(v));
    return 0;
  },
});

/** `show` for people: the header, the look's measures, resource use, where and when, samples, the verdict. */
function showText(v: RunView): string {
  const e = v.evaluation;
  const { dir, record, room, wake } = e.snapshot;
  const standing = e.standing;
  const lines: string[] = [];
  const versus = v.round === null
    ? `candidate ${record.candidateSha.slice(0, 12)}`
    : `${record.candidates.length} candidates (a round)`;
  lines.push(`run ${dir.path}: ${record.contract.name}, base ${record.baseSha.slice(0, 12)} vs ${versus}`);
  const label = v.round === null ? record.labels[0] ?? "" : "";
  if (label !== "") lines.push(`label: ${escapeControls(label.replace(/[\r\n\t]+/g, " "))}`);
  lines.push(formatMeasureStates(v.rows));
  if (Object.keys(v.usage).length > 0) lines.push("resource use:\n" + formatUsageTable(v.usage));
  if (Object.keys(v.provenance).length > 0) lines.push("where and when:\n" + formatProvenanceTable(v.provenance));
  if (Object.keys(v.attempts).length > 0) lines.push(formatEarlierAttempts(v.attempts));
  const sampled = Object.fromEntries(v.rows.flatMap((m) => e.samples[m.name] ? [[m.name, e.samples[m.name]!]] : []));
  if (Object.keys(sampled).length > 0) {
    const c = record.contract;
    lines.push(`${samplesHeading(c.summary, c.siblings)}\n${formatSamplesTable(sampled)}`);
  }
  for (const w of v.warnings) lines.push(`warning: ${w}`);
  if (v.status.schedulerError && standing.kind !== "cancelled") {
    lines.push(`scheduler unreachable: ${v.status.schedulerError}`);
  }
  // the wake of a run still open: once decided, calibrated or failed, it is only history (--json keeps it)
  if (wake && v.open) {
    lines.push(`wake job ${wake.jobId} (${wake.dependency ?? `begin ${wake.begin}`}), submitted ${wake.submittedAt}`);
  }
  if (room !== null && v.open) {
    lines.push(
      `waiting for room: ${room.waiting} job(s) not submitted yet, the site's submit limit (${room.limit}) being ` +
        `full at ${room.at}; a later pass submits them as jobs end`,
    );
  }
  const roundTable = v.round === null ? undefined : formatRoundTable(v.round, record.baseSha);
  if (roundTable !== undefined && standing.kind !== "decided") lines.push(roundTable);
  const relative = e.quantities?.relative ?? null;
  const metric = { direction: record.contract.direction, unit: record.contract.unit, relative };
  lines.push(standingText(dir, record, standing, e.disputes.length > 0, roundTable, metric));
  return lines.join("\n");
}

/** The last lines of `show`: the verdict, the calibration, or why there is none. */
function standingText(
  dir: RunDir,
  r: RunRecord,
  s: Standing,
  disputed: boolean,
  round: string | undefined,
  metric: MetricWords,
): string {
  switch (s.kind) {
    case "calibrated":
      return formatCalibration(s.calibration);
    case "decided":
      return formatDecisionTable(s.decision, s.decision.paired, disputed, round, metric);
    case "cancelled": {
      const jobs = s.cancel.jobs.length > 0 ? ` (jobs ${s.cancel.jobs.join(", ")} cancelled)` : "";
      const late = s.lateOutcome === null ? "" : ` (a ${s.lateOutcome === "decided" ? "verdict" : "calibration"} ` +
        "reached after the cancel is not the run's)";
      return `cancelled by user on ${s.cancel.cancelledAt}${jobs}: no verdict${late}`;
    }
    case "failed":
      return `failed on ${s.failure.failedAt}: ${s.failure.message}`;
    case "measuring":
      return `measuring: ${describeHolder(s.holder)} is running its evals (local backend)`;
    case "interrupted":
      return `interrupted: the process that measured it stopped before a ${
        r.kind === "calibrate" ? "calibration" : "verdict"
      }; "outerloop resume ${dir.path}" goes on from what is on disk`;
    case "parked":
      return r.kind === "calibrate" ? "no calibration yet" : "no verdict yet";
  }
}
