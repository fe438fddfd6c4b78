import { readRoomNote } from "../../dispatch/room_note.ts";
import type { JobUsage } from "../../compute/usage.ts";
import { describeHolder } from "../../rundir/lock_file.ts";
import type { DecisionRecord } from "../../rundir/decision_file.ts";
import { type Provenance, provenanceJson, readProvenance } from "../../dispatch/provenance.ts";
import { evalDirPath } from "../../dispatch/eval_files.ts";
import { slot } from "../../measure/identity.ts";
import { formatProvenanceTable } from "../../report/provenance_table.ts";
import { checkDecision, disputeWarning } from "../../views/decision_check.ts";
import { runStanding, type Standing } from "../../views/standing.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import { type RunStatus, runStatus } from "../../views/run_status.ts";
import { measureUsage, usageJson } from "../../plan/run_usage.ts";
import { formatDecisionTable, formatMeasureStates, type MeasureStateRow } from "../../report/verdict_table.ts";
import { formatUsageTable, usageWarnings } from "../../report/usage_table.ts";
import type { Compute } from "../../compute/compute.ts";
import { jsonFlag, runDirPositional } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { calibrationJson, pairedJson, roundStandingJson } from "../shared/run_output.ts";
import { readRoundStanding, roundSummary } from "../../views/round_view.ts";
import { formatRoundTable } from "../../report/round_table.ts";
import { readCalibration } from "../../rundir/calibration_file.ts";
import { formatCalibration } from "../../report/calibration_table.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import { defineLeaf } from "../command.ts";
import { runSamples } from "../../views/measure_samples.ts";
import { benchmarkQuantities, quantitiesJson } from "../../views/quantities.ts";
import { formatSamplesTable, samplesHeading } from "../../report/samples_table.ts";

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
    "says when and why; show itself exits 0 (`wait` and `resume` exit 3 for them). A round (K candidates against",
    "one baseline) lists every arm with its state (in play, dropped at pair n and why, decided), its interval on",
    "the screen's pairs and, for the screen's choice, on the confirmation's, and names the winner or why there",
    "is none; --json gives it as `round` (decision.json's, or where an open round stands).",
  ],

  parse(args) {
    return { runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"), json: args.on("json") };
  },

  async execute(o, { io, compute, now }) {
    const dir = o.runDir;
    const record = readRunRecord(dir);
    const backend = compute(record.compute);
    const s = await runStatus(dir, record, backend, now);
    const standing = runStanding(dir, record);
    const cancel = standing.kind === "cancelled" ? standing.cancel : null;
    const failure = standing.kind === "failed" ? standing.failure : null;
    const decision = standing.kind === "decided" ? standing.decision : null;
    const disputes = decision === null ? [] : checkDecision(dir, record, decision);
    const rows = cancel === null ? s.measures : s.measures.map(cancelledRow);
    const usage = await usageOf(s, record, backend);
    const where = provenanceOf(dir, record, s, decision);
    const samples = runSamples(dir, record, decision);
    const round = record.candidates.length > 1 ? readRoundStanding(dir, record, decision) : null;
    const room = standing.kind === "parked" || standing.kind === "measuring" ? readRoomNote(dir.path) : null;
    const warnings = [
      ...(disputes.length > 0 ? [disputeWarning(dir, disputes)] : []),
      ...Object.entries(usage).flatMap(([name, u]) => usageWarnings(name, u)),
    ];
    if (o.json) {
      outLine(
        io,
        JSON.stringify({
          run_dir: dir.path,
          base_sha: record.baseSha,
          candidate_sha: record.candidateSha,
          measures: rows.map((m) => ({
            name: m.name,
            state: m.state,
            value: m.value ?? null,
            job_id: m.jobId ?? null,
            reason: m.reason ?? null,
            why: m.why ?? null,
            usage: usage[m.name] ? usageJson(usage[m.name]!) : null,
            provenance: where[m.name] ? provenanceJson(where[m.name]!) : null,
            samples: samples[m.name] ? { ...samples[m.name]! } : null,
          })),
          wake: s.wake && {
            job_id: s.wake.jobId,
            dependency: s.wake.dependency,
            begin: s.wake.begin,
            submitted_at: s.wake.submittedAt,
          },
          kind: record.kind,
          state: standing.kind,
          verdict: decision?.verdict ?? null,
          disputes,
          ...(record.kind === "calibrate" ? { calibration: calibrationOrNull(dir, record) } : {}),
          ...(decision ? pairedJson(decision.paired) : {}),
          ...quantitiesJson(decision ? benchmarkQuantities(decision) : null),
          round: round === null ? null : roundStandingJson(round.standing),
          scheduler_error: s.schedulerError,
          waiting_for_room: room,
          failure: failure && { measure: failure.measure, message: failure.message, failed_at: failure.failedAt },
          cancelled: cancel && { cancelled_at: cancel.cancelledAt, jobs: cancel.jobs },
          warnings,
        }),
      );
      return 0;
    }
    const versus = round === null
      ? `candidate ${record.candidateSha.slice(0, 12)}`
      : `${record.candidates.length} candidates (a round)`;
    outLine(io, `run ${dir.path}: ${record.contract.name}, base ${record.baseSha.slice(0, 12)} vs ${versus}`);
    outLine(io, formatMeasureStates(rows));
    if (Object.keys(usage).length > 0) outLine(io, "resource use:\n" + formatUsageTable(usage));
    if (Object.keys(where).length > 0) outLine(io, "where and when:\n" + formatProvenanceTable(where));
    const sampled = Object.fromEntries(rows.flatMap((m) => samples[m.name] ? [[m.name, samples[m.name]!]] : []));
    if (Object.keys(sampled).length > 0) {
      const c = record.contract;
      outLine(io, `${samplesHeading(c.summary, c.siblings)}\n${formatSamplesTable(sampled)}`);
    }
    for (const w of warnings) outLine(io, `warning: ${w}`);
    if (s.schedulerError && cancel === null) outLine(io, `scheduler unreachable: ${s.schedulerError}`);
    // the wake of a run still open: once decided, calibrated or failed, it is only history (--json keeps it)
    if (s.wake && (standing.kind === "parked" || standing.kind === "measuring")) {
      outLine(
        io,
        `wake job ${s.wake.jobId} (${s.wake.dependency ?? `begin ${s.wake.begin}`}), submitted ${s.wake.submittedAt}`,
      );
    }
    if (room !== null) {
      outLine(
        io,
        `waiting for room: ${room.waiting} job(s) not submitted yet, the site's submit limit (${room.limit}) being ` +
          `full at ${room.at}; a later pass submits them as jobs end`,
      );
    }
    const roundTable = round === null
      ? undefined
      : formatRoundTable(roundSummary(record, round.standing, round.values), record.baseSha);
    if (roundTable !== undefined && standing.kind !== "decided") outLine(io, roundTable);
    outLine(io, standingText(dir, record, standing, disputes.length > 0, roundTable));
    return 0;
  },
});

/** The last lines of `show`: the verdict, the calibration, or why there is none. */
function standingText(dir: RunDir, r: RunRecord, s: Standing, disputed: boolean, round?: string): string {
  switch (s.kind) {
    case "calibrated":
      return formatCalibration(s.calibration);
    case "decided":
      return formatDecisionTable(s.decision, s.decision.paired, disputed, round);
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

function calibrationOrNull(dir: RunDir, r: RunRecord): Record<string, unknown> | null {
  const c = readCalibration(dir, r);
  return c ? calibrationJson(c) : null;
}

/** In a cancelled run, a measure without a value was cancelled: not lost, not pending, whatever the queue says now. */
function cancelledRow(row: MeasureStateRow): MeasureStateRow {
  if (row.state === "done") return row;
  const { why: _why, reason: _reason, ...rest } = row;
  return { ...rest, state: "cancelled", why: "cancelled by user" };
}

/** Where and when each finished measure ran: what `decision.json` kept, else what its eval dir says. */
function provenanceOf(
  dir: RunDir,
  r: RunRecord,
  s: RunStatus,
  decision: DecisionRecord | null,
): Record<string, Provenance> {
  const out: Record<string, Provenance> = {};
  for (const row of s.measures) {
    const m = s.plan.find((x) => x.name === row.name);
    const p = decision?.provenance?.[row.name] ??
      (m && row.state === "done" ? readProvenance(evalDirPath(dir.path, slot(r.image, m))) : null);
    if (p) out[row.name] = p;
  }
  return out;
}

/**
 * Each finished measure's resource use: what `decision.json` kept, and for
 * the rest ONE accounting query.
 */
async function usageOf(s: RunStatus, r: RunRecord, compute: Compute): Promise<Record<string, JobUsage>> {
  const kept: Record<string, JobUsage> = { ...(s.decision?.usage ?? {}) };
  const ask = s.measures.filter((m) =>
    (m.state === "done" || m.state === "failed") && m.jobId !== undefined && kept[m.name] === undefined
  ).map((m) => ({ name: m.name, jobId: m.jobId! }));
  const asked = await measureUsage(compute, ask, r.createdAt);
  const out: Record<string, JobUsage> = {};
  for (const m of s.measures) {
    const u = kept[m.name] ?? asked[m.name];
    if (u !== undefined) out[m.name] = u;
  }
  return out;
}
