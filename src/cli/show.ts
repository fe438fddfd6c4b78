import { RunDir } from "../run/run_dir.ts";
import { readRunRecord } from "../run/run_record.ts";
import { runStatus } from "../run/run_status.ts";
import { formatDecisionTable, formatMeasureStates } from "../run/table.ts";
import { jsonFlag, runDirPositional } from "./common.ts";
import { type CliCommand, outLine } from "./io.ts";
import { calibrationJson, pairedJson } from "./run_output.ts";
import { readCalibration } from "../run/calibration_file.ts";
import { formatCalibration } from "../run/calibration_table.ts";
import type { RunRecord } from "../run/run_record.ts";

export interface ShowOptions {
  readonly runDir: RunDir;
  readonly json: boolean;
}

/** `outerloop show RUN_DIR`: where a run stands, changing nothing. */
export const showCommand: CliCommand<ShowOptions> = {
  spec: {
    name: "show",
    summary: "Where a run stands: each measure's state, the wake job, the verdict; changes nothing",
    positionals: runDirPositional,
    flags: jsonFlag,
    details: ["Asks the scheduler at most one queue listing and one sacct, like a pass of `resume`."],
  },

  parse(args) {
    return { runDir: RunDir.checked(args.positional["RUN_DIR"]!, "RUN_DIR"), json: args.on("json") };
  },

  async run(o, { io, compute, now }) {
    const dir = o.runDir;
    const record = readRunRecord(dir);
    const s = await runStatus(dir, record, compute(record.compute), now);
    if (o.json) {
      outLine(
        io,
        JSON.stringify({
          run_dir: dir.path,
          base_sha: record.baseSha,
          candidate_sha: record.candidateSha,
          measures: s.measures.map((m) => ({
            name: m.name,
            state: m.state,
            value: m.value ?? null,
            job_id: m.jobId ?? null,
            reason: m.reason ?? null,
            why: m.why ?? null,
          })),
          wake: s.wake && {
            job_id: s.wake.jobId,
            dependency: s.wake.dependency,
            begin: s.wake.begin,
            submitted_at: s.wake.submittedAt,
          },
          kind: record.kind,
          verdict: s.decision?.verdict ?? null,
          ...(record.kind === "calibrate" ? { calibration: calibrationOrNull(dir, record) } : {}),
          ...(s.decision ? pairedJson(s.decision.paired) : {}),
          scheduler_error: s.schedulerError,
        }),
      );
      return 0;
    }
    outLine(
      io,
      `run ${dir.path}: ${record.contract.name}, base ${record.baseSha.slice(0, 12)} vs candidate ${
        record.candidateSha.slice(0, 12)
      }`,
    );
    outLine(io, formatMeasureStates(s.measures));
    if (s.schedulerError) outLine(io, `scheduler unreachable: ${s.schedulerError}`);
    if (s.wake) {
      outLine(
        io,
        `wake job ${s.wake.jobId} (${s.wake.dependency ?? `begin ${s.wake.begin}`}), submitted ${s.wake.submittedAt}`,
      );
    }
    if (record.kind === "calibrate") {
      const c = readCalibration(dir, record);
      outLine(io, c ? formatCalibration(c) : "no calibration yet");
    } else {
      outLine(io, s.decision ? formatDecisionTable(s.decision, s.decision.paired) : "no verdict yet");
    }
    return 0;
  },
};

function calibrationOrNull(dir: RunDir, r: RunRecord): Record<string, unknown> | null {
  const c = readCalibration(dir, r);
  return c ? calibrationJson(c) : null;
}
