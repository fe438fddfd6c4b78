import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { BadInputError } from "../../errors.ts";
import { toClimb } from "../../report/model.ts";
import { runsJson } from "../../report/runs_json.ts";
import { formatRunsTable } from "../../report/runs_table.ts";
import { formatResultsTsv } from "../../report/results_tsv.ts";
import { climbLiveness } from "../../views/run_liveness.ts";
import { jsonFlag } from "../shared/common.ts";
import { EXIT } from "../../exit_codes.ts";
import { outLine } from "../shared/io.ts";
import { defineLeaf } from "../command.ts";
import { readClimbWarning } from "../shared/climb.ts";

export interface RunsOptions {
  /** The climb: a directory whose children are run dirs. */
  readonly dir: string;
  /** Ask the scheduler (one listing) whether each open run has anything live. */
  readonly live: boolean;
  readonly json: boolean;
  /** `--tsv`: autoresearch's results.tsv habits (report/results_tsv.ts). */
  readonly tsv: boolean;
}

/** `outerloop runs DIR`: every run of a climb, oldest first, from the files alone. */
export const runsCommand = defineLeaf<RunsOptions>({
  meta: {
    name: "runs",
    description:
      "Every run of a climb (DIR's run dirs), oldest first: shas, state, verdict, difference, improvement, wall time",
  },
  args: {
    DIR: { type: "positional", description: "The climb: a directory of run dirs side by side" },
    live: {
      type: "boolean",
      description: "Ask the scheduler (one queue listing) whether each open run still has a live job",
    },
    tsv: {
      type: "boolean",
      description:
        "Tab-separated, as autoresearch's results.tsv: commit, the metric, status (keep/discard/crash), description",
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
    '"wall_seconds", "failure", "live", "disputes", "round", …}]}, oldest first.',
    "A round (K candidates against one baseline) is a row with its verdict and winner, then a row per candidate:",
    "its sha and ref, standing (winner, dropped at pair n, …), verdict and estimate; --json gives them as",
    '"round": {"open", "n", "winner", "candidates": [{"arm", "measure", "ref", "sha", "verdict", "standing",',
    '"winner", "stage", "improvement", …}]} (null for one candidate).',
    "With --tsv: a header row, then the first run's baseline (keep, baseline) and a row per decided candidate:",
    "its commit (7 characters), its mean (0.000000 for a crash), keep (accepted: a round's winner), discard or",
    "crash, and its label (--label, else its commit's subject; a crash adds its cause). Open, failed and",
    "cancelled runs and calibrations are left out. A long label or crash cause is cut with … in the table.",
  ],
  examples: [
    "outerloop runs ~/runs",
    "outerloop runs ~/runs --live --json",
    "outerloop runs ~/runs --tsv > results.tsv",
  ],

  parse(args) {
    const dir = resolve(args.positional["DIR"]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new BadInputError(`DIR ${JSON.stringify(args.positional["DIR"])} is not a directory`);
    }
    if (args.on("json") && args.on("tsv")) throw new BadInputError("Give --json or --tsv, not both");
    return { dir, live: args.on("live"), json: args.on("json"), tsv: args.on("tsv") };
  },

  async execute(o, deps) {
    let runs = readClimbWarning(o.dir, deps.io);
    let code: number = EXIT.ok;
    if (o.live) {
      const asked = await climbLiveness(runs, (mode, cluster) => deps.compute(mode, cluster).activeJobs());
      runs = asked.runs;
      if (asked.error !== null) {
        deps.io.stderr(`outerloop: cannot list the queue (${asked.error}): liveness unknown\n`);
        code = EXIT.scheduler;
      }
    }
    const ordered = toClimb(runs);
    if (o.json) {
      outLine(deps.io, JSON.stringify(runsJson(ordered)));
    } else if (o.tsv) {
      deps.io.stdout(formatResultsTsv(ordered));
    } else {
      deps.io.stdout(formatRunsTable(ordered));
      if (ordered.some((r) => r.live === false)) {
        deps.io.stderr(
          `outerloop: a run marked "nothing live" waits on nothing: "outerloop wait RUN_DIR" carries it on\n`,
        );
      }
      if (ordered.some((r) => r.live === true && r.wakeLive === false)) {
        deps.io.stderr(
          `outerloop: a run marked "no wake" is never resumed when its jobs end: "outerloop resume RUN_DIR" re-arms it\n`,
        );
      }
    }
    return code;
  },
});
