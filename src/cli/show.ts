import { defineCommand } from "citty";
import { resolve } from "node:path";
import { computeFor } from "../compute/index.ts";
import { readRunRecord } from "../run/run_record.ts";
import { runStatus } from "../run/run_status.ts";
import { formatDecisionTable, formatMeasureStates } from "../run/table.ts";
import { out, runDirArgs } from "./common_args.ts";

/** `outerloop show RUN_DIR`: where a run stands, changing nothing. */
export const showCommand = defineCommand({
  meta: { name: "show", description: "Where a run stands: each measure's state, the wake job, the verdict" },
  args: runDirArgs,
  async run({ args }) {
    const runDir = resolve(args.runDir);
    const record = readRunRecord(runDir);
    const s = await runStatus(runDir, record, computeFor(record.compute));
    if (args.json) {
      out(JSON.stringify({
        run_dir: runDir,
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
        wake: s.wake &&
          {
            job_id: s.wake.jobId,
            dependency: s.wake.dependency,
            begin: s.wake.begin,
            submitted_at: s.wake.submittedAt,
          },
        verdict: s.decision?.verdict ?? null,
        scheduler_error: s.schedulerError,
      }));
      return 0;
    }
    out(
      `run ${runDir}: ${record.contract.name}, base ${record.baseSha.slice(0, 12)} vs candidate ${
        record.candidateSha.slice(0, 12)
      }`,
    );
    out(formatMeasureStates(s.measures));
    if (s.schedulerError) out(`scheduler unreachable: ${s.schedulerError}`);
    if (s.wake) {
      out(
        `wake job ${s.wake.jobId} (${s.wake.dependency ?? `begin ${s.wake.begin}`}), submitted ${s.wake.submittedAt}`,
      );
    }
    if (s.decision) out(formatDecisionTable(s.decision));
    else out("no verdict yet");
    return 0;
  },
});
