import type { Compute } from "../compute/compute.ts";
import type { JobUsage } from "../compute/usage.ts";
import type { Provenance } from "../dispatch/provenance.ts";
import type { RunEvaluation } from "../evaluation/evaluate.ts";
import { measureUsage } from "../plan/run_usage.ts";
import type { RoundSummary } from "../report/round_model.ts";
import { usageWarnings } from "../report/usage_table.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";
import { disputeWarning } from "../evaluation/decision_check.ts";
import { roundSummary } from "./round_view.ts";
import { type EarlierAttempt, earlierAttempts } from "./earlier_attempts.ts";
import { type RunStatus, runStatus } from "./run_status.ts";
import { livenessOf, noWakeWarning } from "./run_liveness.ts";
import { withOneListing } from "../compute/one_listing.ts";

/**
 * Everything `show` tells of a run, from its evaluation and ONE look at the
 * scheduler (a queue listing and at most two sacct, as a pass of `resume`
 * asks): each measure's state (a cancelled run's unfinished measures read
 * "cancelled", whatever the queue says now), what the finished ones used,
 * where and when they ran, a round's candidates, and the warnings. The
 * command renders it as text or JSON; nothing here prints.
 */
export interface RunView {
  readonly evaluation: RunEvaluation;
  readonly status: RunStatus;
  /** The look's measures as `show` lists them. */
  readonly rows: readonly MeasureStateRow[];
  /** What each finished measure used: what decision.json kept, else one sacct. */
  readonly usage: Readonly<Record<string, JobUsage>>;
  /** Where and when each finished measure of the look ran. */
  readonly provenance: Readonly<Record<string, Provenance>>;
  /** Each measure's earlier attempts (sent again, requeued, taken up again), by measure name. */
  readonly attempts: Readonly<Record<string, readonly EarlierAttempt[]>>;
  /** A round's candidates for the table; null for one candidate. */
  readonly round: RoundSummary | null;
  /** Whether the run is still open (parked, measuring): its wake and its wait for room are news, not history. */
  readonly open: boolean;
  readonly warnings: readonly string[];
}

/** The run as `show` tells it. */
export async function viewRun(e: RunEvaluation, scheduler: Compute, now: () => number): Promise<RunView> {
  const s = e.snapshot;
  // the measures and the wake read one listing
  const compute = withOneListing(scheduler);
  const status = await runStatus(e, compute, now);
  const open = e.standing.kind === "parked" || e.standing.kind === "measuring";
  const liveness = open && s.record.compute !== "local" && status.schedulerError === null
    ? await compute.activeJobs().then((l) => livenessOf(l, s.dir, s.record), () => null)
    : null;
  const cancelled = e.standing.kind === "cancelled";
  const rows = cancelled ? status.measures.map(cancelledRow) : status.measures;
  const decision = e.standing.kind === "decided" ? e.standing.decision : null;
  const usage = await usageOf(status.measures, s.decision?.usage ?? {}, compute, s.record.createdAt);
  const provenance: Record<string, Provenance> = {};
  for (const row of rows) {
    const p = decision?.provenance?.[row.name] ?? (row.state === "done" ? s.results.provenance[row.name] : undefined);
    if (p) provenance[row.name] = p;
  }
  return {
    evaluation: e,
    status,
    rows,
    usage,
    provenance,
    attempts: earlierAttempts(s.dir, s.record.image, status.plan),
    round: e.round === null ? null : roundSummary(s.record, e.round),
    open,
    warnings: [
      ...(liveness !== null && !liveness.wake ? [noWakeWarning(s.dir, liveness.jobs)] : []),
      ...(e.disputes.length > 0 ? [disputeWarning(s.dir, e.disputes)] : []),
      ...Object.entries(usage).flatMap(([name, u]) => usageWarnings(name, u)),
    ],
  };
}

/** In a cancelled run, a measure without a value was cancelled: not lost, not pending, whatever the queue says now. */
function cancelledRow(row: MeasureStateRow): MeasureStateRow {
  if (row.state === "done") return row;
  const { why: _why, reason: _reason, ...rest } = row;
  return { ...rest, state: "cancelled", why: "cancelled by user" };
}

/** Each finished measure's resource use: what `decision.json` kept, and for the rest ONE accounting query. */
async function usageOf(
  rows: readonly MeasureStateRow[],
  kept: Readonly<Record<string, JobUsage>>,
  compute: Compute,
  since: string,
): Promise<Record<string, JobUsage>> {
  const ask = rows.filter((m) =>
    (m.state === "done" || m.state === "failed" || m.state === "crashed") && m.jobId !== undefined &&
    kept[m.name] === undefined
  ).map((m) => ({ name: m.name, jobId: m.jobId! }));
  const asked = await measureUsage(compute, ask, since);
  const out: Record<string, JobUsage> = {};
  for (const m of rows) {
    const u = kept[m.name] ?? asked[m.name];
    if (u !== undefined) out[m.name] = u;
  }
  return out;
}
