// Tested by tests/views/run_view_test.ts
import { provenanceJson } from "../dispatch/provenance.ts";
import { quantitiesJson } from "../evaluation/quantities.ts";
import { mergeSha, roundStandingJson } from "../evaluation/round_standing.ts";
import { usageJson } from "../rundir/usage_json.ts";
import { calibrationJson } from "../rundir/calibration_file.ts";
import { crashJson, pairedFactsJson } from "../rundir/decision_file.ts";
import { failureJson } from "../rundir/failure_file.ts";
import type { RunView } from "./run_view.ts";
import type { ShowJson } from "../output/show_output.ts";
import { sideMeans } from "../evaluation/side_means.ts";
import { CANDIDATE_ARM } from "../measure/measure_name.ts";

/**
 * `show --json`: one object with the run's identity, each measure of the
 * look (state, value, job, why, resource use, provenance, samples), the wake,
 * the standing and verdict with the disputes, a calibration's report,
 * a repeated design's facts (decision.json's keys), the benchmark's two
 * quantities under their own names, a round's standing, what waits for room,
 * the failure, the cancel and the warnings. Every key is present (null when
 * it does not apply), so a script reads one shape whatever the run's state.
 */
export function runViewJson(v: RunView): ShowJson {
  const e = v.evaluation;
  const { dir, record, wake, room } = e.snapshot;
  const s = e.standing;
  const decision = s.kind === "decided" ? s.decision : null;
  return {
    run_dir: dir.path,
    base_sha: record.baseSha,
    candidate_sha: mergeSha(record, decision),
    // what the candidate tries (a round: its winner's); "" when none is known
    label: record.candidates.length > 1
      ? record.labels[(decision?.round?.winner?.arm ?? 0) - 1] ?? ""
      : record.labels[0] ?? "",
    measures: v.rows.map((m) => ({
      name: m.name,
      state: m.state,
      value: m.value ?? null,
      job_id: m.jobId ?? null,
      reason: m.reason ?? null,
      why: m.why ?? null,
      usage: v.usage[m.name] ? usageJson(v.usage[m.name]!) : null,
      provenance: v.provenance[m.name] ? provenanceJson(v.provenance[m.name]!) : null,
      samples: e.samples[m.name] ? { ...e.samples[m.name]! } : null,
      // earlier attempts that gave no value (sent again, requeued), oldest first; [] for none
      attempts: (v.attempts[m.name] ?? []).map((a) => ({
        job_id: a.jobId,
        host: a.host || null,
        requeued: a.requeued,
        why: a.why,
      })),
    })),
    wake: wake && {
      job_id: wake.jobId,
      dependency: wake.dependency,
      begin: wake.begin,
      submitted_at: wake.submittedAt,
    },
    kind: record.kind,
    state: s.kind,
    verdict: decision?.verdict ?? null,
    // the crashed candidate's measure, job, kind, cause and message (verdict "crashed"); null otherwise
    crash: decision?.crash === undefined ? null : crashJson(decision.crash),
    // every candidate measure that crashed so far (a round's arms out of play while it goes on)
    crashes: e.snapshot.crashes.map((c) => ({ ...crashJson(c), at: c.at })),
    disputes: [...e.disputes],
    ...(record.kind === "calibrate"
      ? { calibration: e.snapshot.calibration && calibrationJson(e.snapshot.calibration) }
      : {}),
    ...(decision?.paired ? pairedFactsJson(decision.paired) : {}),
    // each side's mean over every pair measured so far: a round's candidate is its winner's (null without one)
    means: sideMeans(
      decision?.values ?? e.snapshot.results.values,
      record.candidates.length > 1 ? decision?.round?.winner?.arm ?? null : CANDIDATE_ARM,
    ),
    ...quantitiesJson(e.quantities),
    round: e.round === null ? null : roundStandingJson(e.round, record.labels),
    scheduler_error: v.status.schedulerError,
    waiting_for_room: v.open ? room : null,
    failure: s.kind === "failed" ? failureJson(s.failure) : null,
    cancelled: s.kind === "cancelled" ? { cancelled_at: s.cancel.cancelledAt, jobs: s.cancel.jobs } : null,
    warnings: [...v.warnings],
  };
}
