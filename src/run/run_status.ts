import type { Compute } from "../compute/compute.ts";
import { isPending } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { noResultNote } from "../measure/notes.ts";
import { cachedBaselineSnapshot } from "./baseline_source.ts";
import { type DecisionRecord, readDecision } from "./decision_file.ts";
import { measurerFor } from "./measurer_for.ts";
import { planFromRecord } from "./plan_from_record.ts";
import type { RunRecord } from "./run_record.ts";
import type { MeasureStateRow } from "./table.ts";
import { readWakeRecord, type WakeRecord } from "./wake_record.ts";

/** Where a run stands: every measure, the wake job, the verdict. */
export interface RunStatus {
  readonly measures: readonly MeasureStateRow[];
  readonly wake: WakeRecord | null;
  readonly decision: DecisionRecord | null;
  /** Set when the scheduler could not be asked; states of live jobs are then unknown. */
  readonly schedulerError: string | null;
}

/**
 * Reads a run's state without changing anything: results from the eval
 * dirs, liveness from one queue listing, states from one batched sacct,
 * and a pending reason per pending job.
 */
export async function runStatus(runDir: string, r: RunRecord, compute: Compute): Promise<RunStatus> {
  const measurer = measurerFor(runDir, r, compute);
  const plan = planFromRecord(r);
  const cached = cachedBaselineSnapshot(runDir);
  let live = new Map<string, string[]>();
  let states = new Map<string, string>();
  let schedulerError: string | null = null;
  const open = plan.filter((m) => !measurer.done(m) && !(m.name === "baseline" && cached !== null));
  if (open.length > 0) {
    try {
      live = await compute.activeJobs();
      const ids = open.map((m) => live.get(measurer.jobName(m))?.[0] ?? measurer.marker(m)).filter((id) =>
        /^\d+$/.test(id)
      );
      states = await compute.statuses(ids, new Date(Date.now() - 7 * 24 * 3600_000));
    } catch (err) {
      schedulerError = (err as Error).message;
    }
  }
  const rows: MeasureStateRow[] = [];
  for (const m of plan) {
    if (m.name === "baseline" && cached !== null) {
      rows.push({ name: m.name, state: "done", value: cached, why: "from the baseline cache" });
      continue;
    }
    const marker = measurer.marker(m);
    if (measurer.done(m)) {
      try {
        rows.push({
          name: m.name,
          state: "done",
          value: readEvalResult(runDir, measurer.slot(m), m.metric),
          ...(marker ? { jobId: marker } : {}),
        });
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        rows.push({
          name: m.name,
          state: "failed",
          why: err.message.split("\n")[0]!,
          ...(marker ? { jobId: marker } : {}),
        });
      }
      continue;
    }
    const liveId = live.get(measurer.jobName(m))?.[0];
    if (liveId) {
      const state = states.get(liveId) ?? "";
      const reason = isPending(state) || state === "" ? await compute.pendingReason(liveId).catch(() => "") : "";
      rows.push({
        name: m.name,
        state: reason || isPending(state) ? "pending" : "running",
        jobId: liveId,
        ...(reason ? { reason } : {}),
      });
    } else if (schedulerError !== null && marker) {
      rows.push({ name: m.name, state: "pending", jobId: marker, reason: "scheduler unreachable" });
    } else if (marker) {
      rows.push({ name: m.name, state: "failed", jobId: marker, why: noResultNote(marker, states.get(marker) ?? "") });
    } else {
      rows.push({ name: m.name, state: "not dispatched" });
    }
  }
  return { measures: rows, wake: readWakeRecord(runDir), decision: readDecision(runDir), schedulerError };
}
