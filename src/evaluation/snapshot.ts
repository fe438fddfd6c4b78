// Tested by tests/evaluation/standing_test.ts
import { benchmarkName, parseGuardName } from "../measure/measure_name.ts";
import { readRoomNote, type RoomNote } from "../dispatch/room_note.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { type RunPlan, runPlan } from "../plan/run_plan.ts";
import { type CalibrationRecord, readCalibration } from "../rundir/calibration_file.ts";
import { readCancel, type RunCancel } from "../rundir/cancel_file.ts";
import { type DecisionRecord, readDecision } from "../rundir/decision_file.ts";
import { type MetCrash, readCrashRecord, type StoppedMeasure } from "../rundir/crashes_file.ts";
import { readFailure, type RunFailure } from "../rundir/failure_file.ts";
import { type LockHolder, readHolder } from "../rundir/lock_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { readRunRecord, type RunRecord } from "../rundir/run_record.ts";
import { readWakeRecord, type WakeRecord } from "../rundir/wake_record.ts";
import { type ResultsOnDisk, resultsOnDisk } from "./results_on_disk.ts";

/**
 * A run dir read once: every record a command asks about (run.json, the
 * decision or calibration, the cancel, the failure, the lock's holder, the
 * wake, the submit-limit note) and — on first use, since only some commands
 * need them — the results every eval of the run left. A command reads one
 * snapshot and passes it down as a value; the evaluation (evaluate.ts) and
 * every view are functions of it, so no two of them can read the run at two
 * different moments, and no file is opened twice.
 */
export interface RunSnapshot {
  readonly dir: RunDir;
  readonly record: RunRecord;
  /** The run's plan, with the baseline the cache gives as the next pass would take it (nothing written). */
  readonly plan: RunPlan;
  readonly decision: DecisionRecord | null;
  readonly calibration: CalibrationRecord | null;
  readonly cancel: RunCancel | null;
  readonly failure: RunFailure | null;
  /** The candidates' measures that crashed, first met first (`crashes.json`). */
  readonly crashes: readonly MetCrash[];
  /** The measures a crash stopped (`crashes.json`'s `stopped`): their results, if any came, are not read. */
  readonly stopped: readonly StoppedMeasure[];
  /** Who holds the run lock: a holder, or null when no lock is held (or it cannot be read). */
  readonly holder: LockHolder | null;
  readonly wake: WakeRecord | null;
  /** What waits for room under a site's submit limit, as the last pass left it. */
  readonly room: RoomNote | null;
  /**
   * Every result the run's evals left (the cache's baseline included), read
   * on first use; none of a measure a crash stopped (`stopped`), whatever it
   * delivered: the decision was made without it.
   */
  readonly results: ResultsOnDisk;
}

/**
 * Reads a run dir. A damaged or foreign run file is a `RunRecordError`
 * (exit 2), as its reader says; `record` may be given when the caller has
 * just read (or written) it.
 */
export function readRunSnapshot(dir: RunDir, record: RunRecord = readRunRecord(dir)): RunSnapshot {
  const plan = runPlan(record, cachedBaseline(dir, record, false));
  const holder = readHolder(dir.lock);
  const { crashes, stopped } = readCrashRecord(dir);
  let results: ResultsOnDisk | undefined;
  return {
    dir,
    record,
    plan,
    decision: record.kind === "measure" ? readDecision(dir, record) : null,
    calibration: record.kind === "calibrate" ? readCalibration(dir, record) : null,
    cancel: readCancel(dir),
    failure: readFailure(dir),
    crashes,
    stopped,
    holder: typeof holder === "object" && "pid" in holder ? holder : null,
    wake: readWakeRecord(dir),
    room: readRoomNote(dir.path),
    get results() {
      return results ??= withoutStopped(resultsOnDisk(dir, plan), stopped);
    },
  };
}

/** The results without the values of the measures a crash stopped. */
function withoutStopped(r: ResultsOnDisk, stopped: readonly StoppedMeasure[]): ResultsOnDisk {
  if (stopped.length === 0) return r;
  const names = new Set(stopped.map((s) => s.measure));
  // a guard's value is read from its benchmark measure's result: it goes with it
  const measureOf = (k: string) => {
    const g = parseGuardName(k);
    return g === null ? k : benchmarkName(g.arm, g.pair);
  };
  const values = Object.fromEntries(Object.entries(r.values).filter(([k]) => !names.has(measureOf(k))));
  const unreadable = Object.fromEntries(Object.entries(r.unreadable).filter(([k]) => !names.has(k)));
  return {
    values,
    unreadable,
    signalled: new Set([...r.signalled].filter((k) => !names.has(k))),
    samples: r.samples,
    provenance: r.provenance,
    measures: r.measures,
    get jobIds() {
      return r.jobIds;
    },
  };
}
