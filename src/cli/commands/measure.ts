import { slot, unitJobName } from "../../measure/identity.ts";
import { dispatchUnits, unitResources } from "../../measure/dispatch_unit.ts";
import { measureEnv } from "../../measure/measure.ts";
import { runPlan } from "../../plan/run_plan.ts";
import { prepareRun, type RunRequest } from "../../run/prepare.ts";
import type { WaitTiming } from "../../run/wait.ts";
import type { RunRecord } from "../../rundir/run_record.ts";
import { defineLeaf } from "../command.ts";
import { computeFlags } from "../shared/common.ts";
import { type CliDeps, outLine } from "../shared/io.ts";
import { candidateFlag, parseRunRequest, repoFlags, runFlags } from "../shared/run_flags.ts";
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
    description: "Measure --base and --candidate per --contract as batch jobs; park (exit 75) or decide",
  },
  args: {
    ...repoFlags,
    ...candidateFlag,
    ...runFlags,
    "dry-run": { type: "boolean", description: "Print the plan; write and submit nothing" },
    ...computeFlags,
    ...measureWaitFlags,
  },
  details: [
    "Freezes the run in RUN_DIR/run.json, pins both commits under refs/dispatch/, dispatches each measure",
    "as its own job in a fresh checkout, then parks behind a wake job (exit 75) or decides:",
    "exit 0 accept, 10 reject, 11 inconclusive; 3 an eval failed, 4 the scheduler failed, 2 bad input.",
    "Running it again with the same flags continues the same run.",
  ],
  examples: [
    "outerloop measure --repo ~/proj --base main~1 --candidate main --contract bench.json \\",
    "  --run-dir ~/runs/r42 --account myacct --partition cpu",
  ],

  parse(args, env) {
    return {
      request: parseRunRequest(args, env, args.values("candidate")),
      dryRun: args.on("dry-run"),
      json: args.on("json"),
      wait: measureWait(args),
    };
  },

  async execute(o, deps) {
    const { runDir, mode } = o.request;
    const record = await prepareRun(o.request, { now: deps.now, self: deps.self() });
    if (o.dryRun) {
      printPlan(deps, record, o.json);
      return 0;
    }
    return await startAndReport(record, deps, { runDir, mode, json: o.json, wait: o.wait });
  },
});

function printPlan({ io }: CliDeps, r: RunRecord, json: boolean): void {
  const first = runPlan(r).first.plan;
  const units = dispatchUnits(first, r.contract.pairing);
  const jobOf = new Map(units.flatMap((u) => u.members.map((m) => [m.name, unitJobName(r.runTag, r.image, u)])));
  const measures = first.map((m) => ({
    name: m.name,
    tree_sha: m.treeSha,
    slot: slot(r.image, m),
    job_name: jobOf.get(m.name)!,
    gpus: m.gpus,
    env: measureEnv(m),
  }));
  const jobs = units.map((u) => ({
    job_name: unitJobName(r.runTag, r.image, u),
    mode: u.mode,
    measures: u.members.map((m) => m.name),
    ...unitResources(u, r.contract),
  }));
  if (json) {
    outLine(
      io,
      JSON.stringify({
        measures,
        jobs,
        seed: r.seed,
        run_tag: r.runTag,
        compute: r.compute,
        pairing: r.contract.pairing,
      }),
    );
    return;
  }
  for (const m of measures) {
    outLine(io, `${m.name}\t${m.tree_sha.slice(0, 12)}\t${m.job_name}\tgpus=${m.gpus}\t${JSON.stringify(m.env)}`);
  }
  if (r.compute !== "slurm") return;
  const asks = (j: (typeof jobs)[number]) =>
    `${j.minutes} min, ${j.mem} of memory, ${j.cpus} CPU${j.cpus === 1 ? "" : "s"}${
      j.gpus > 0 ? `, ${j.gpus} GPU(s)` : ""
    }`;
  if (r.contract.pairing === "separate") {
    outLine(io, `each eval job asks for ${asks(jobs[0]!)}`);
    return;
  }
  for (const j of jobs) {
    const how = j.mode === "duet"
      ? "two at a time, each on half its CPUs: twice eval_cpus and eval_mem"
      : "one after the other: the walltime of them all";
    outLine(io, `pair job ${j.job_name} runs ${j.measures.join(", ")} (${how}); it asks for ${asks(j)}`);
  }
}
