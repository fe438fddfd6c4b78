import { quoteWord } from "../../compute/quote.ts";
import { EXIT } from "../../exit_codes.ts";
import { type DryRun, dryRun, dryRunJson } from "../../run/dry_run.ts";
import { prepareRun, type RunRequest } from "../../run/prepare.ts";
import type { WaitTiming } from "../../run/wait.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import { defineLeaf } from "../command.ts";
import { computeFlags } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";
import { candidateFlag, labelFlag, parseRunRequest, repoFlags, runFlags } from "../shared/run_flags.ts";
import { startAndReport } from "../shared/start_run.ts";
import { measureWait, measureWaitFlags } from "../shared/wait_flags.ts";

/** What `outerloop measure` was asked, from its flags and the environment; nothing resolved yet. */
export interface MeasureOptions {
  readonly request: RunRequest;
  readonly dryRun: boolean;
  readonly json: boolean;
  /** `--wait`: after a park, wait for the verdict with this timing; null without it. */
  readonly wait: WaitTiming | null;
}

/** `outerloop measure`: freeze the run, then dispatch, park, or decide. */
export const measureCommand = defineLeaf<MeasureOptions>({
  meta: {
    name: "measure",
    description: `Measure --base and --candidate per --contract as batch jobs; park (exit ${EXIT.parked}) or decide`,
  },
  args: {
    ...repoFlags,
    ...candidateFlag,
    ...labelFlag,
    ...runFlags,
    smoke: {
      type: "boolean",
      description: "Measure each candidate once, alone, before the first look: a crash then costs one eval, not a look",
    },
    "dry-run": { type: "boolean", description: "Print the plan; write and submit nothing" },
    ...computeFlags,
    ...measureWaitFlags,
  },
  details: [
    "Freezes the run in RUN_DIR/run.json, pins both commits under refs/dispatch/ (`outerloop prune DIR` removes",
    "the pins of finished runs), dispatches each measure as its own job in a fresh checkout, then parks behind",
    `a wake job (exit ${EXIT.parked}) or decides, exiting with the verdict (the exit codes below).`,
    "Running it again with the same flags continues the same run.",
  ],
  examples: [
    "outerloop measure --repo ~/proj --base main~1 --candidate main --contract bench.json \\",
    "  --run-dir ~/runs/r42 --account myacct --partition cpu",
  ],

  parse(args, env) {
    return {
      request: {
        ...parseRunRequest(args, env, args.values("candidate"), args.values("label")),
        smoke: args.on("smoke"),
      },
      dryRun: args.on("dry-run"),
      json: args.on("json"),
      wait: measureWait(args),
    };
  },

  async execute(o, deps) {
    const { runDir, mode } = o.request;
    const record = await prepareRun(o.request, { now: deps.now, self: deps.self() });
    if (o.dryRun) {
      const d = await dryRun(record, runDir, deps.self(), deps.compute(mode, record.cluster));
      outLine(deps.io, o.json ? JSON.stringify(dryRunJson(d, record)) : dryRunText(d, record));
      return 0;
    }
    return await startAndReport(record, deps, { runDir, mode, json: o.json, wait: o.wait });
  },
});

/** The dry run for people: each measure of the first look, what each job asks for, then each sbatch in order. */
function dryRunText(d: DryRun, r: RunRecord): string {
  const lines = d.measures.map((m) =>
    `${m.name}\t${m.treeSha.slice(0, 12)}\t${m.jobName}\tgpus=${m.gpus}\t${JSON.stringify(m.env)}`
  );
  if (d.submissions === null) return lines.join("\n");
  const asks = (j: DryRun["jobs"][number]) =>
    `${j.minutes} min, ${j.mem} of memory, ${j.cpus} CPU${j.cpus === 1 ? "" : "s"}${
      j.gpus > 0 ? `, ${j.gpus} GPU(s)` : ""
    }`;
  if (r.contract.pairing === "separate") lines.push(`each eval job asks for ${asks(d.jobs[0]!)}`);
  else {
    for (const j of d.jobs) {
      const how = j.mode === "duet"
        ? "two at a time, each on half its CPUs: twice eval_cpus and eval_mem"
        : "one after the other: the walltime of them all";
      lines.push(`pair job ${j.jobName} runs ${j.measures.join(", ")} (${how}); it asks for ${asks(j)}`);
    }
  }
  lines.push(`the first pass submits ${d.submissions.length} time(s):`);
  for (const s of d.submissions) {
    const what = s.kind === "array" ? `an array of ${s.tasks} task(s)` : s.kind === "wake" ? "the wake" : "a job";
    lines.push(`  ${what}: ${s.argv.map((a) => quoteWord(a)).join(" ")}`);
  }
  return lines.join("\n");
}
