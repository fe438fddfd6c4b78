/**
 * Preparing a run: everything checkable before a run dir is written —
 * the repository, the contract, both refs, the seed cache, the image
 * against the run dir, and a lane for every measure — turned into the run
 * record that `startRun` freezes. `measure` and `calibrate` both start here.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { checkJobName } from "../compute/job_fields.ts";
import type { ComputeMode } from "../compute/mode.ts";
import { loadContract } from "../contract/contract.ts";
import { checkRepoRoot, commitSubject, resolveRef } from "../dispatch/pin.ts";
import { BadInputError } from "../errors.ts";
import type { Pairing } from "../contract/contract.ts";
import { placement } from "../measure/placement.ts";
import { lanesOf } from "../plan/measurer_for.ts";
import { runPlan } from "../plan/run_plan.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { assembleRunRecord, readRunRecord, type RunCandidate, type RunRecord } from "../rundir/run_record.ts";
import { drawSeed } from "./seed.ts";

/** What a run was asked to be (the flags and environment of `measure` or `calibrate`); nothing resolved yet. */
export interface RunRequest {
  /** The repository, an absolute path. */
  readonly repo: string;
  readonly base: string;
  /** The candidate refs, one or more (a round); a calibration's is its base. */
  readonly candidates: readonly string[];
  /** `--label`, one per candidate in order, or none (each candidate's commit subject). */
  readonly labels: readonly string[];
  /** The contract file, as given. */
  readonly contract: string;
  readonly runDir: RunDir;
  readonly seed: number | undefined;
  readonly runTag: string | undefined;
  readonly image: string;
  readonly account: string;
  readonly partition: string;
  readonly gpuPartition: string;
  readonly gpuAccount: string;
  /** `--wake-partition` (or OUTERLOOP_WAKE_PARTITION): the wake jobs' partition; "" for the evals'. */
  readonly wakePartition: string;
  /** `--wake-qos` (or OUTERLOOP_WAKE_QOS); "" for none. */
  readonly wakeQos: string;
  /** `--clusters` (or SLURM_CLUSTERS): the one Slurm cluster (`-M`); "" for slurm.conf's own. */
  readonly cluster: string;
  /** False for `--no-arrays` (or OUTERLOOP_ARRAYS=off). */
  readonly arrays: boolean;
  /** `--array-throttle` (or OUTERLOOP_ARRAY_THROTTLE); null for none. */
  readonly arrayThrottle: number | null;
  /** `--smoke`: each candidate's first measure alone before the first look (`measure` only). */
  readonly smoke?: boolean;
  /** An absolute path, or null. */
  readonly seedCache: string | null;
  readonly mode: ComputeMode;
  /** The arguments as given, frozen into the record (informational). */
  readonly raw: readonly string[];
}

/**
 * What a run is for: a verdict on a candidate, or (`outerloop calibrate`) the
 * base against itself in `pairs` pairs, under `pairing` (`--pairing`; the
 * contract's when absent).
 */
export type RunPurpose =
  | { readonly kind: "measure" }
  | { readonly kind: "calibrate"; readonly pairs: number; readonly pairing?: Pairing };
const MEASURE: RunPurpose = { kind: "measure" };

/** What preparing a run reads beyond the request. */
export interface PrepareDeps {
  /** The clock, in epoch milliseconds (the record's creation time). */
  readonly now: () => number;
  /** The argv that runs this program again: the start of the command line the record keeps. */
  readonly self: readonly string[];
}

/**
 * Everything checkable before anything is written: the repository, the
 * contract, both refs, the seed cache, the image against the run dir, and a
 * lane for every measure — so a run dir is never created that could not run.
 * Returns the run's record (the earlier one's identity kept when the run dir
 * holds the same run already).
 */
export async function prepareRun(o: RunRequest, deps: PrepareDeps, purpose: RunPurpose = MEASURE): Promise<RunRecord> {
  if (!existsSync(o.repo) || !statSync(o.repo).isDirectory()) {
    throw new BadInputError(`--repo ${JSON.stringify(o.repo)} is not a directory`);
  }
  await checkRepoRoot(o.repo);
  const loaded = loadContract(o.contract);
  // a calibration measures every pair in one look, and always its own baseline (the cache is for verdicts)
  const contract = purpose.kind === "measure" ? loaded : {
    ...loaded,
    repeats: purpose.pairs,
    maxRepeats: purpose.pairs,
    baseline: "measure" as const,
    pairing: purpose.pairing ?? loaded.pairing,
  };
  if (contract.pairing === "duet" && [loaded.gpus, ...loaded.siblings.map((s) => s.gpus)].some((g) => g > 0)) {
    throw new BadInputError(
      `--pairing duet cannot calibrate ${JSON.stringify(o.contract)}: a duet pins each measure to half the job's ` +
        "CPUs and cannot split GPUs; calibrate with --pairing same-job",
    );
  }
  const [baseSha, ...candidateShas] = await Promise.all([
    ref(o.repo, o.base, "--base"),
    ...o.candidates.map((c) => ref(o.repo, c, "--candidate")),
  ]);
  const candidates = o.candidates.map((ref, i) => ({ ref, sha: candidateShas[i]! }));
  if (purpose.kind === "measure") checkCandidates(o.base, baseSha!, candidates);
  if (candidates.length > 1 && contract.pairing === "duet") {
    throw new BadInputError(
      `--candidate given ${candidates.length} times with pairing "duet" in ${JSON.stringify(o.contract)}: a duet ` +
        "runs one baseline beside one candidate, and a round measures every candidate beside one baseline; " +
        'use pairing "same-job" (or "separate") for a round',
    );
  }
  if (o.labels.length > 0 && o.labels.length !== candidates.length) {
    throw new BadInputError(
      `--label given ${o.labels.length} time(s) for ${candidates.length} --candidate: give one per --candidate, in ` +
        "their order, or none (each candidate is labelled with its commit's subject)",
    );
  }
  if (o.smoke === true && contract.pairing !== "separate") {
    throw new BadInputError(
      `--smoke measures each candidate alone first, and pairing ${JSON.stringify(contract.pairing)} in ` +
        `${JSON.stringify(o.contract)} runs a pair's measures in one job: leave out --smoke, or use pairing "separate"`,
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
  if (purpose.kind === "measure") checkLabels(o, existing, candidates);
  // a calibration has no candidate to label
  const labels = purpose.kind !== "measure"
    ? undefined
    : o.labels.length > 0
    ? o.labels
    : await Promise.all(candidates.map((c) => commitSubject(o.repo, c.sha)));
  const record = assembleRunRecord(
    o.runDir,
    {
      repo: o.repo,
      baseRef: o.base,
      candidateRef: candidates[0]!.ref,
      baseSha: baseSha!,
      candidateSha: candidates[0]!.sha,
      candidates,
      contract,
      contractPath: resolve(o.contract),
      seed: o.seed,
      runTag: o.runTag,
      image: o.image,
      account: o.account,
      partition: o.partition,
      gpuPartition: o.gpuPartition,
      gpuAccount: o.gpuAccount,
      wakePartition: o.wakePartition,
      wakeQos: o.wakeQos,
      cluster: o.cluster,
      arrays: o.arrays,
      arrayThrottle: o.arrayThrottle,
      smoke: purpose.kind === "measure" && o.smoke === true,
      compute: o.mode,
      seedCache: o.seedCache,
      commandLine: [...deps.self, purpose.kind, ...o.raw],
      kind: purpose.kind,
      ...(labels === undefined ? {} : { labels }),
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

/**
 * Refuses candidates that are no comparison: one equal to the base, or the
 * same commit twice (by sha: `main` and its sha are one candidate).
 */
function checkCandidates(base: string, baseSha: string, candidates: readonly RunCandidate[]): void {
  for (const [i, c] of candidates.entries()) {
    if (c.sha === baseSha) {
      throw new BadInputError(
        `--base ${JSON.stringify(base)} and --candidate ${JSON.stringify(c.ref)} are the same commit ` +
          `${baseSha.slice(0, 12)}: pass two different commits (to measure a commit against itself and see the ` +
          `benchmark's noise, run "outerloop calibrate" with the same --base)`,
      );
    }
    const twin = candidates.findIndex((d) => d.sha === c.sha);
    if (twin < i) {
      throw new BadInputError(
        `--candidate ${JSON.stringify(candidates[twin]!.ref)} and --candidate ${JSON.stringify(c.ref)} are the same ` +
          `commit ${c.sha.slice(0, 12)}: give each candidate once`,
      );
    }
  }
}

/**
 * Refuses a `--label` that differs from the one the same run keeps: a run's
 * labels are frozen with it (another ref for the same sha is refused too),
 * and a label silently kept would be a surprise.
 */
function checkLabels(o: RunRequest, existing: RunRecord | null, candidates: readonly RunCandidate[]): void {
  if (o.labels.length === 0 || existing === null || existing.labels.every((l) => l === "")) return;
  const same = existing.candidates.length === candidates.length &&
    existing.candidates.every((c, i) => c.sha === candidates[i]!.sha);
  if (!same) return; // another run: writeRunRecord refuses it, naming what differs
  const i = o.labels.findIndex((l, i) => l !== existing.labels[i]);
  if (i < 0) return;
  throw new BadInputError(
    `--label ${JSON.stringify(o.labels[i])} differs from the label ${JSON.stringify(existing.labels[i])} that ` +
      `the run in --run-dir ${JSON.stringify(o.runDir.path)} keeps for --candidate ${
        JSON.stringify(candidates[i]!.ref)
      }: ` +
      "a run's labels are frozen with it; give the same --label, leave --label out, or measure in a new --run-dir",
  );
}

async function ref(repo: string, name: string, flag: string): Promise<string> {
  try {
    return await resolveRef(repo, name);
  } catch (err) {
    throw new BadInputError(`${flag}: ${(err as Error).message}`, { cause: err });
  }
}
