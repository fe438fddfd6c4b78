import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { LiveJob } from "../../compute/compute.ts";
import type { ComputeMode } from "../../compute/mode.ts";
import { BadInputError } from "../../errors.ts";
import { type RunSummary, toClimb } from "../../report/model.ts";
import { runsJson } from "../../report/runs_json.ts";
import { formatRunsTable } from "../../report/runs_table.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { liveJobsOf, runJobNames } from "../../plan/run_jobs.ts";
import { readRunRecord } from "../../rundir/run_record.ts";
import { climbRunDirs, summarizeRun } from "../../views/run_summary.ts";
import { jsonFlag } from "../shared/common.ts";
import { EXIT } from "../../exit_codes.ts";
import { type CliCommand, type CliDeps, outLine } from "../shared/io.ts";

export interface RunsOptions {
  /** The climb: a directory whose children are run dirs. */
  readonly dir: string;
  /** Ask the scheduler (one listing) whether each open run has anything live. */
  readonly live: boolean;
  readonly json: boolean;
}

/** `outerloop runs DIR`: every run of a climb, oldest first, from the files alone. */
export const runsCommand: CliCommand<RunsOptions> = {
  spec: {
    name: "runs",
    summary:
      "Every run of a climb (DIR's run dirs), oldest first: shas, state, verdict, difference, improvement, wall time",
    positionals: [{ name: "DIR", description: "The climb: a directory of run dirs side by side" }],
    flags: {
      live: {
        kind: "boolean",
        description: "Ask the scheduler (one queue listing) whether each open run still has a live job",
      },
      ...jsonFlag,
    },
    details: [
      "Reads files only (run.json, decision.json, failure.json, cancelled.json, the eval results): never asks",
      "the scheduler unless --live is given. A run dir whose files cannot be read is skipped with a warning.",
      "difference is candidate − baseline (the raw sign); improvement is in the direction's favour (positive =",
      "better), with its interval: the estimate the verdict rests on. A disputed decision says so.",
      'With --json: {"runs": [{"tag", "kind", "run_dir", "created_at", "benchmark", "state", "verdict",',
      '"baseline", "candidate", "difference", "improvement": {"n", "mean", "lower", "upper", "confidence"},',
      '"wall_seconds", "failure", "live", "disputes", …}]}, oldest first.',
    ],
    examples: ["outerloop runs ~/runs", "outerloop runs ~/runs --live --json"],
  },

  parse(args) {
    const dir = resolve(args.positional["DIR"]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new BadInputError(`DIR ${JSON.stringify(args.positional["DIR"])} is not a directory`);
    }
    return { dir, live: args.on("live"), json: args.on("json") };
  },

  async run(o, deps) {
    let runs = readClimb(o.dir, deps);
    let code: number = EXIT.ok;
    if (o.live) ({ runs, code } = await withLiveness(runs, deps));
    const ordered = toClimb(runs);
    if (o.json) {
      outLine(deps.io, JSON.stringify(runsJson(ordered)));
    } else {
      deps.io.stdout(formatRunsTable(ordered));
      if (ordered.some((r) => r.live === false)) {
        deps.io.stderr(
          `outerloop: a run marked "nothing live" waits on nothing: "outerloop wait RUN_DIR" carries it on\n`,
        );
      }
    }
    return code;
  },
};

/** Every readable run of the climb; an unreadable one is skipped with a warning naming its file. */
export function readClimb(dir: string, { io }: CliDeps): RunSummary[] {
  const runs: RunSummary[] = [];
  for (const runDir of climbRunDirs(dir)) {
    try {
      runs.push(summarizeRun(runDir));
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      io.stderr(`outerloop: warning: skipping ${runDir.path}: ${err.message.split("\n")[0]}\n`);
    }
  }
  return runs;
}

/**
 * The open runs with `live` set from ONE queue listing per backend (a
 * climb is on one): an open run is live when the listing shows any of its
 * job names. When the listing fails, liveness stays unknown and the exit
 * code is 4 (the table still prints).
 */
async function withLiveness(runs: readonly RunSummary[], deps: CliDeps): Promise<{ runs: RunSummary[]; code: number }> {
  const listings = new Map<ComputeMode, Promise<Map<string, LiveJob[]>>>();
  const listing = (mode: ComputeMode) => {
    if (!listings.has(mode)) listings.set(mode, deps.compute(mode).activeJobs());
    return listings.get(mode)!;
  };
  let code: number = EXIT.ok;
  const out: RunSummary[] = [];
  for (const run of runs) {
    if (run.state !== "parked") {
      out.push(run);
      continue;
    }
    const dir = new RunDir(run.runDir);
    const record = readRunRecord(dir);
    try {
      const live = liveJobsOf(await listing(record.compute), runJobNames(dir, record), dir).length > 0;
      out.push({ ...run, live });
    } catch (err) {
      if (code === EXIT.ok) {
        deps.io.stderr(`outerloop: cannot list the queue (${(err as Error).message}): liveness unknown\n`);
      }
      code = EXIT.scheduler;
      out.push(run);
    }
  }
  return { runs: out, code };
}
