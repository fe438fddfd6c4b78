import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { ComputeMode } from "../../compute/mode.ts";
import { checkRepoRoot, resolveRef } from "../../dispatch/pin.ts";
import { clampMinutes } from "../../dispatch/eval_job_spec.ts";
import { BadInputError } from "../../errors.ts";
import { jobName, slot } from "../../measure/identity.ts";
import { measureEnv } from "../../measure/measure.ts";
import { placement } from "../../measure/placement.ts";
import { loadContract } from "../../contract/contract.ts";
import { lanesOf } from "../../plan/measurer_for.ts";
import { runPhase, startRun } from "../../run/phase.ts";
import { runPlan } from "../../plan/run_plan.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { assembleRunRecord, readRunRecord, type RunRecord } from "../../rundir/run_record.ts";
import { drawSeed } from "../../run/seed.ts";
import { computeFlags, nonEmpty, resolveMode, wholeNumber } from "../shared/common.ts";
import { type CliCommand, type CliDeps, outLine } from "../shared/io.ts";
import { checkJobName, checkSchedulerName } from "../shared/job_fields.ts";
import { reportOutcome } from "../shared/run_output.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
import { measureWait, measureWaitFlags, type WaitTiming } from "../shared/wait_flags.ts";
import { waitAfterPark } from "../shared/wait_loop.ts";

/** What `outerloop measure` was asked, from its flags and the environment; nothing resolved yet. */
export interface MeasureOptions {
  readonly repo: string;
  readonly base: string;
  readonly candidate: string;
  readonly contract: string;
  readonly runDir: RunDir;
  readonly seed: number | undefined;
  readonly runTag: string | undefined;
  readonly image: string;
  readonly account: string;
  readonly partition: string;
  readonly gpuPartition: string;
  readonly gpuAccount: string;
  readonly seedCache: string | null;
  readonly mode: ComputeMode;
  readonly dryRun: boolean;
  readonly json: boolean;
  /** The arguments as given, frozen into the record (informational). */
  readonly raw: readonly string[];
  /** `--wait`: after a park, wait for the verdict with this timing; null without it. */
  readonly wait: WaitTiming | null;
}

/** The largest seed: benchmarks read an int32. */
const MAX_SEED = 2 ** 31 - 1;

/** `outerloop measure`: freeze the run, then dispatch, park, or decide. */
export const measureCommand: CliCommand<MeasureOptions> = {
  spec: {
    name: "measure",
    summary: "Measure --base and --candidate per --contract as batch jobs; park (exit 75) or decide",
    details: [
      "Freezes the run in RUN_DIR/run.json, pins both commits under refs/dispatch/, dispatches each measure",
      "as its own job in a fresh checkout, then parks behind a wake job (exit 75) or decides:",
      "exit 0 accept, 10 reject, 11 inconclusive; 3 an eval failed, 4 the scheduler failed, 2 bad input.",
      "Running it again with the same flags continues the same run.",
    ],
    flags: {
      repo: { kind: "string", hint: "DIR", description: "The git repository holding both commits", required: true },
      base: { kind: "string", hint: "REF", description: "The baseline ref (branch, tag, sha)", required: true },
      candidate: { kind: "string", hint: "REF", description: "The candidate ref", required: true },
      contract: { kind: "string", hint: "FILE", description: "The benchmark contract (JSON)", required: true },
      "run-dir": { kind: "string", hint: "DIR", description: "Where the run's records live (created)", required: true },
      seed: { kind: "string", hint: "N", description: "The paired seed, 1 to 2147483647", defaultText: "drawn" },
      "run-tag": { kind: "string", hint: "TAG", description: "Short tag in job names", defaultText: "RUN_DIR's name" },
      image: { kind: "string", hint: "IMAGE", description: "Apptainer image for every eval", env: "OUTERLOOP_IMAGE" },
      account: { kind: "string", hint: "NAME", description: "Slurm account", env: "OUTERLOOP_ACCOUNT" },
      partition: { kind: "string", hint: "NAME", description: "Slurm partition", env: "OUTERLOOP_PARTITION" },
      "gpu-partition": {
        kind: "string",
        hint: "NAME",
        description: "Partition for measures with GPUs",
        env: "OUTERLOOP_GPU_PARTITION",
      },
      "gpu-account": {
        kind: "string",
        hint: "NAME",
        description: "Account for measures with GPUs",
        env: "OUTERLOOP_GPU_ACCOUNT",
      },
      "seed-cache": { kind: "string", hint: "DIR", description: "A directory copied into every eval checkout" },
      "dry-run": { kind: "boolean", description: "Print the plan; write and submit nothing" },
      ...computeFlags,
      ...measureWaitFlags,
    },
    examples: [
      "outerloop measure --repo ~/proj --base main~1 --candidate main --contract bench.json \\",
      "  --run-dir ~/runs/r42 --account myacct --partition cpu",
    ],
  },

  parse(args, env) {
    // an empty value is a choice here: `--image=""` runs on the host whatever OUTERLOOP_IMAGE says
    const fromEnv = (flag: string, name: string) => args.value(flag) ?? env[name] ?? "";
    /** Where a value came from, for a message: the flag when given, else the variable. */
    const source = (flag: string, name: string) => args.value(flag) === undefined ? name : `--${flag}`;
    const schedulerName = (flag: string, name: string) => checkSchedulerName(source(flag, name), fromEnv(flag, name));
    const seedText = args.value("seed");
    const runTag = args.value("run-tag");
    const seedCache = nonEmpty("seed-cache", args.value("seed-cache"));
    return {
      repo: resolve(nonEmpty("repo", args.value("repo"))!),
      base: args.value("base")!,
      candidate: args.value("candidate")!,
      contract: nonEmpty("contract", args.value("contract"))!,
      runDir: RunDir.checked(args.value("run-dir")!, "--run-dir"),
      seed: seedText === undefined ? undefined : wholeNumber("seed", seedText, 0, 1, MAX_SEED),
      runTag: runTag === undefined ? undefined : checkJobName("--run-tag", runTag),
      image: checkImage(source("image", "OUTERLOOP_IMAGE"), fromEnv("image", "OUTERLOOP_IMAGE")),
      account: schedulerName("account", "OUTERLOOP_ACCOUNT"),
      partition: schedulerName("partition", "OUTERLOOP_PARTITION"),
      gpuPartition: schedulerName("gpu-partition", "OUTERLOOP_GPU_PARTITION"),
      gpuAccount: schedulerName("gpu-account", "OUTERLOOP_GPU_ACCOUNT"),
      seedCache: seedCache === undefined ? null : resolve(seedCache),
      mode: resolveMode(args.value("compute"), env),
      dryRun: args.on("dry-run"),
      json: args.on("json"),
      raw: args.raw,
      wait: measureWait(args),
    };
  },

  async run(o, deps) {
    const record = await resolveRun(o, deps);
    if (o.dryRun) {
      printPlan(deps, record, o.json);
      return 0;
    }
    o.runDir.create("--run-dir");
    const outcome = await startRun(o.runDir, record, phaseDeps(deps, o.mode));
    if (o.wait !== null && outcome.kind === "parked") {
      const pass = () => runPhase(o.runDir, phaseDeps(deps, o.mode));
      return await waitAfterPark(o.runDir, deps, outcome, { timing: o.wait, json: o.json, pass });
    }
    return reportOutcome(deps.io, o.runDir, outcome, o.json);
  },
};

/** What a run is for: a verdict on a candidate, or (`outerloop calibrate`) the base against itself in `pairs` pairs. */
export type RunPurpose = { readonly kind: "measure" } | { readonly kind: "calibrate"; readonly pairs: number };
const MEASURE: RunPurpose = { kind: "measure" };

/**
 * Everything checkable before anything is written: the repository, the
 * contract, both refs, the seed cache, the image against the run dir, and a
 * lane for every measure — so a run dir is never created that could not run.
 */
export async function resolveRun(o: MeasureOptions, deps: CliDeps, purpose: RunPurpose = MEASURE): Promise<RunRecord> {
  if (!existsSync(o.repo) || !statSync(o.repo).isDirectory()) {
    throw new BadInputError(`--repo ${JSON.stringify(o.repo)} is not a directory`);
  }
  await checkRepoRoot(o.repo);
  const loaded = loadContract(o.contract);
  // a calibration measures every pair in one look, and always its own baseline (the cache is for verdicts)
  const contract = purpose.kind === "measure"
    ? loaded
    : { ...loaded, repeats: purpose.pairs, maxRepeats: purpose.pairs, baseline: "measure" as const };
  const [baseSha, candidateSha] = await Promise.all([
    ref(o.repo, o.base, "--base"),
    ref(o.repo, o.candidate, "--candidate"),
  ]);
  if (baseSha === candidateSha && purpose.kind === "measure") {
    throw new BadInputError(
      `--base ${JSON.stringify(o.base)} and --candidate ${JSON.stringify(o.candidate)} are the same commit ` +
        `${baseSha.slice(0, 12)}: pass two different commits (to measure a commit against itself and see the ` +
        `benchmark's noise, run "outerloop calibrate" with the same --base)`,
    );
  }
  if (o.seedCache !== null && !(existsSync(o.seedCache) && statSync(o.seedCache).isDirectory())) {
    throw new BadInputError(`--seed-cache ${JSON.stringify(o.seedCache)} is not a directory`);
  }
  if (o.image !== "" && /[,:]/.test(o.runDir.path)) {
    throw new BadInputError(
      `--run-dir ${JSON.stringify(o.runDir.path)} holds "," or ":", which apptainer reads as separators ` +
        "in a bind path: pick a run dir without them to run evals in an image",
    );
  }
  const existing = existsSync(o.runDir.runRecord) ? readRunRecord(o.runDir) : null;
  const record = assembleRunRecord(
    o.runDir,
    {
      repo: o.repo,
      baseRef: o.base,
      candidateRef: o.candidate,
      baseSha,
      candidateSha,
      contract,
      contractPath: resolve(o.contract),
      seed: o.seed,
      runTag: o.runTag,
      image: o.image,
      account: o.account,
      partition: o.partition,
      gpuPartition: o.gpuPartition,
      gpuAccount: o.gpuAccount,
      compute: o.mode,
      seedCache: o.seedCache,
      commandLine: [...deps.self(), purpose.kind, ...o.raw],
      kind: purpose.kind,
    },
    existing,
    { now: deps.now, drawSeed },
  );
  if (o.runTag === undefined && existing === null) {
    // the default tag is the run dir's name: checked like --run-tag, since it goes into job names the same way
    checkJobName(
      "run tag",
      record.runTag,
      `it is the name of --run-dir ${JSON.stringify(o.runDir.path)}: pass --run-tag TAG`,
    );
  }
  const lanes = lanesOf(record);
  for (const m of runPlan(record).first.plan) placement(lanes, m.gpus, `Measure ${m.name}`);
  return record;
}

/** An image name that apptainer would not read as an option; `from` names the flag or variable it came from. */
function checkImage(from: string, image: string): string {
  if (image.startsWith("-")) {
    throw new BadInputError(
      `Invalid ${from} ${JSON.stringify(image)}: it would read as an apptainer option; name the image by a path ` +
        `(./${image})`,
    );
  }
  return image;
}

async function ref(repo: string, name: string, flag: string): Promise<string> {
  try {
    return await resolveRef(repo, name);
  } catch (err) {
    throw new BadInputError(`${flag}: ${(err as Error).message}`, { cause: err });
  }
}

function printPlan({ io }: CliDeps, r: RunRecord, json: boolean): void {
  const measures = runPlan(r).first.plan.map((m) => ({
    name: m.name,
    tree_sha: m.treeSha,
    slot: slot(r.image, m),
    job_name: jobName(r.runTag, r.image, m),
    gpus: m.gpus,
    env: measureEnv(m),
  }));
  if (json) {
    outLine(io, JSON.stringify({ measures, seed: r.seed, run_tag: r.runTag, compute: r.compute }));
    return;
  }
  for (const m of measures) {
    outLine(io, `${m.name}\t${m.tree_sha.slice(0, 12)}\t${m.job_name}\tgpus=${m.gpus}\t${JSON.stringify(m.env)}`);
  }
  if (r.compute === "slurm") {
    const c = r.contract;
    const cpus = `${c.evalCpus} CPU${c.evalCpus === 1 ? "" : "s"}`;
    outLine(io, `each eval job asks for ${clampMinutes(c.evalMinutes)} min, ${c.evalMem} of memory, ${cpus}`);
  }
}
