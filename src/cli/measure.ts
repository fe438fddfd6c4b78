import { defineCommand } from "citty";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pinSha, resolveRef } from "../dispatch/pin.ts";
import { jobName, slot } from "../measure/identity.ts";
import { measureEnv } from "../measure/measure.ts";
import { loadContract } from "../run/contract.ts";
import { runPhase } from "../run/phase.ts";
import { planFromRecord } from "../run/plan_from_record.ts";
import { readRunRecord, RUN_RECORD_FILE, type RunRecord, writeRunRecord } from "../run/run_record.ts";
import { drawSeed } from "../run/seed.ts";
import { selfCommand } from "../runtime/self.ts";
import { computeArgs, intFlag, out, resolveMode } from "./common_args.ts";
import { computeFor } from "../compute/index.ts";
import { UsageError } from "./errors.ts";
import { reportOutcome } from "./run_output.ts";

const args = {
  ...computeArgs,
  repo: { type: "string", description: "The git repository holding both commits", required: true },
  base: { type: "string", description: "The baseline ref (branch, tag, sha)", required: true },
  candidate: { type: "string", description: "The candidate ref", required: true },
  contract: { type: "string", description: "The benchmark contract (JSON file)", required: true },
  "run-dir": { type: "string", description: "Where this run's records and job outputs live (created)", required: true },
  seed: { type: "string", description: "The paired seed (≥ 1); drawn when the contract names a seed_env" },
  "run-tag": { type: "string", description: "Short tag in job names (default: the run dir's name)" },
  image: { type: "string", description: "Apptainer image to run each eval in (env OUTERLOOP_IMAGE)" },
  account: { type: "string", description: "Slurm account (env OUTERLOOP_ACCOUNT)" },
  partition: { type: "string", description: "Slurm partition (env OUTERLOOP_PARTITION)" },
  "gpu-partition": { type: "string", description: "Partition for GPU measures (env OUTERLOOP_GPU_PARTITION)" },
  "gpu-account": { type: "string", description: "Account for GPU measures (env OUTERLOOP_GPU_ACCOUNT)" },
  "seed-cache": { type: "string", description: "A directory copied into every eval checkout" },
  "dry-run": { type: "boolean", description: "Print the plan; write and submit nothing" },
} as const;

/** `outerloop measure`: freeze the run, then dispatch, park, or decide. */
export const measureCommand = defineCommand({
  meta: {
    name: "measure",
    description:
      "Measure --base and --candidate per --contract as batch jobs; park (exit 75) or decide (0 accept, 10 reject, 11 inconclusive)",
  },
  args,
  async run({ args }) {
    const env = process.env;
    const mode = resolveMode(args.compute);
    const repo = resolve(args.repo);
    if (!existsSync(repo) || !statSync(repo).isDirectory()) {
      throw new UsageError(`--repo ${JSON.stringify(args.repo)} is not a directory`);
    }
    const contract = loadContract(args.contract);
    const [baseSha, candidateSha] = await Promise.all([
      ref(repo, args.base, "--base"),
      ref(repo, args.candidate, "--candidate"),
    ]);
    const runDir = resolve(args["run-dir"]);
    const flagSeed = args.seed === undefined ? undefined : intFlag("seed", args.seed, 0, 1);
    const existing = existsSync(`${runDir}/${RUN_RECORD_FILE}`) ? readRunRecord(runDir) : null;
    const record: RunRecord = {
      format: 1,
      createdAt: existing?.createdAt ?? new Date().toISOString(),
      repo,
      baseRef: args.base,
      candidateRef: args.candidate,
      baseSha,
      candidateSha,
      contract,
      contractPath: resolve(args.contract),
      seed: flagSeed ?? existing?.seed ??
        (contract.seedEnv || contract.siblings.some((s) => s.seedEnv) ? drawSeed() : 0),
      runTag: args["run-tag"] ?? existing?.runTag ?? basename(runDir),
      image: args.image ?? env["OUTERLOOP_IMAGE"] ?? "",
      account: args.account ?? env["OUTERLOOP_ACCOUNT"] ?? "",
      partition: args.partition ?? env["OUTERLOOP_PARTITION"] ?? "",
      gpuPartition: args["gpu-partition"] ?? env["OUTERLOOP_GPU_PARTITION"] ?? "",
      gpuAccount: args["gpu-account"] ?? env["OUTERLOOP_GPU_ACCOUNT"] ?? "",
      compute: mode,
      seedCache: args["seed-cache"] ? resolve(args["seed-cache"]) : null,
      commandLine: existing?.commandLine ?? [...selfCommand(), "measure", ...process.argv.slice(3)],
    };
    if (args["dry-run"]) {
      printPlan(record, Boolean(args.json));
      return 0;
    }
    mkdirSync(runDir, { recursive: true });
    await pinSha(repo, baseSha);
    await pinSha(repo, candidateSha);
    writeRunRecord(runDir, record);
    const outcome = await runPhase(runDir, { compute: computeFor(mode), self: selfCommand() });
    return reportOutcome(runDir, outcome, Boolean(args.json));
  },
});

async function ref(repo: string, name: string, flag: string): Promise<string> {
  try {
    return await resolveRef(repo, name);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}

function printPlan(r: RunRecord, json: boolean): void {
  const measures = planFromRecord(r).map((m) => ({
    name: m.name,
    tree_sha: m.treeSha,
    slot: slot(r.image, m),
    job_name: jobName(r.runTag, r.image, m),
    gpus: m.gpus,
    env: measureEnv(m),
  }));
  if (json) {
    out(JSON.stringify({ measures, seed: r.seed, run_tag: r.runTag, compute: r.compute }));
    return;
  }
  for (const m of measures) {
    out(`${m.name}\t${m.tree_sha.slice(0, 12)}\t${m.job_name}\tgpus=${m.gpus}\t${JSON.stringify(m.env)}`);
  }
}
