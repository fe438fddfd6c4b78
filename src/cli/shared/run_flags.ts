import { resolve } from "node:path";
import { checkJobName, checkSchedulerName } from "../../compute/job_fields.ts";
import { BadInputError } from "../../errors.ts";
import type { RunRequest } from "../../run/prepare.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import type { Args, ParsedArgs, StringFlag } from "../flags.ts";
import { nonEmpty, resolveCluster, resolveMode, wholeNumber } from "./common.ts";
import type { Env } from "./io.ts";

/**
 * The flags of a run's request, and their parse: what `measure` and
 * `calibrate` share (a calibration is a measure of the base against itself).
 */

/** `--repo` and `--base`, first in `--help`. */
export const repoFlags: Args = {
  repo: { type: "string", valueHint: "DIR", description: "The git repository holding both commits", required: true },
  base: { type: "string", valueHint: "REF", description: "The baseline ref (branch, tag, sha)", required: true },
};

/**
 * `--candidate`: `measure` has it after `--base`; a calibration's candidate is
 * its base. Given several times, a round: K candidates against one baseline.
 */
export const candidateFlag: Readonly<Record<"candidate", StringFlag>> = {
  candidate: {
    type: "string",
    valueHint: "REF",
    description: "The candidate ref; give it K times for a round of K candidates against one baseline",
    required: true,
    repeatable: true,
  },
};

/** `--label`: what the candidate tries, for `runs`, `show` and the reports; `measure` only. */
export const labelFlag: Args = {
  label: {
    type: "string",
    valueHint: "TEXT",
    description:
      "What the candidate tries, shown by runs, show and the reports (a round: once per --candidate, in order)",
    defaultText: "the candidate commit's subject",
    repeatable: true,
  },
};

/** The rest of a run's flags, from `--contract` to `--seed-cache`. */
export const runFlags: Args = {
  contract: { type: "string", valueHint: "FILE", description: "The benchmark contract (JSON)", required: true },
  "run-dir": {
    type: "string",
    valueHint: "DIR",
    description: "Where the run's records live (created)",
    required: true,
  },
  seed: { type: "string", valueHint: "N", description: "The paired seed, 1 to 2147483647", defaultText: "drawn" },
  "run-tag": { type: "string", valueHint: "TAG", description: "Short tag in job names", defaultText: "RUN_DIR's name" },
  image: { type: "string", valueHint: "IMAGE", description: "Apptainer image for every eval", env: "OUTERLOOP_IMAGE" },
  account: { type: "string", valueHint: "NAME", description: "Slurm account", env: "OUTERLOOP_ACCOUNT" },
  partition: { type: "string", valueHint: "NAME", description: "Slurm partition", env: "OUTERLOOP_PARTITION" },
  "gpu-partition": {
    type: "string",
    valueHint: "NAME",
    description: "Partition for measures with GPUs",
    env: "OUTERLOOP_GPU_PARTITION",
  },
  "gpu-account": {
    type: "string",
    valueHint: "NAME",
    description: "Account for measures with GPUs",
    env: "OUTERLOOP_GPU_ACCOUNT",
  },
  "seed-cache": { type: "string", valueHint: "DIR", description: "A directory copied into every eval checkout" },
  "wake-partition": {
    type: "string",
    valueHint: "NAME",
    description: "Partition for the wake jobs (a site's fast lane; they need a CPU, 512M and minutes)",
    env: "OUTERLOOP_WAKE_PARTITION",
    defaultText: "--partition",
  },
  "wake-qos": { type: "string", valueHint: "NAME", description: "QOS for the wake jobs", env: "OUTERLOOP_WAKE_QOS" },
  "no-arrays": {
    type: "boolean",
    description: "One job per measure, never a job array (sites that forbid arrays; OUTERLOOP_ARRAYS=off)",
  },
  "array-throttle": {
    type: "string",
    valueHint: "K",
    description: "At most K tasks of an array run at once (sbatch's %K)",
    env: "OUTERLOOP_ARRAY_THROTTLE",
    defaultText: "none",
  },
};

/** The largest seed: benchmarks read an int32. */
const MAX_SEED = 2 ** 31 - 1;

/**
 * The run's request from the flags and the environment (the account,
 * partitions and image default from `OUTERLOOP_*`); `candidates` are the
 * candidate refs (`--candidate`, given once or more; a calibration's is its
 * `--base`). Checks what needs no file: the names, the seed, the image's form.
 */
export function parseRunRequest(
  args: ParsedArgs,
  env: Env,
  candidates: readonly string[],
  labels: readonly string[] = [],
): RunRequest {
  // an empty value is a choice here: `--image=""` runs on the host whatever OUTERLOOP_IMAGE says
  const fromEnv = (flag: string, name: string) => args.value(flag) ?? env[name] ?? "";
  /** Where a value came from, for a message: the flag when given, else the variable. */
  const source = (flag: string, name: string) => args.value(flag) === undefined ? name : `--${flag}`;
  const schedulerName = (flag: string, name: string) => checkSchedulerName(source(flag, name), fromEnv(flag, name));
  const seedText = args.value("seed");
  const runTag = args.value("run-tag");
  const seedCache = nonEmpty("seed-cache", args.value("seed-cache"));
  const mode = resolveMode(args.value("compute"), env);
  return {
    repo: resolve(nonEmpty("repo", args.value("repo"))!),
    base: args.value("base")!,
    candidates: [...candidates],
    labels: labels.map((l, i) => {
      if (l.trim() === "") throw new BadInputError(`Invalid --label "" (number ${i + 1}): give a description`);
      return l;
    }),
    contract: nonEmpty("contract", args.value("contract"))!,
    runDir: RunDir.checked(args.value("run-dir")!, "--run-dir"),
    seed: seedText === undefined ? undefined : wholeNumber("seed", seedText, 0, 1, MAX_SEED),
    runTag: runTag === undefined ? undefined : checkJobName("--run-tag", runTag),
    image: checkImage(source("image", "OUTERLOOP_IMAGE"), fromEnv("image", "OUTERLOOP_IMAGE")),
    account: schedulerName("account", "OUTERLOOP_ACCOUNT"),
    partition: schedulerName("partition", "OUTERLOOP_PARTITION"),
    gpuPartition: schedulerName("gpu-partition", "OUTERLOOP_GPU_PARTITION"),
    gpuAccount: schedulerName("gpu-account", "OUTERLOOP_GPU_ACCOUNT"),
    wakePartition: schedulerName("wake-partition", "OUTERLOOP_WAKE_PARTITION"),
    wakeQos: schedulerName("wake-qos", "OUTERLOOP_WAKE_QOS"),
    arrays: !args.on("no-arrays") && !/^(off|0|false|no)$/i.test(env["OUTERLOOP_ARRAYS"] ?? ""),
    arrayThrottle: throttleOf(args.value("array-throttle") ?? env["OUTERLOOP_ARRAY_THROTTLE"], args),
    seedCache: seedCache === undefined ? null : resolve(seedCache),
    mode,
    cluster: resolveCluster(args.value("clusters"), env, mode),
    raw: args.raw,
  };
}

/** `--array-throttle` (or its variable): a whole number ≥ 1, or null when not given. */
function throttleOf(value: string | undefined, args: ParsedArgs): number | null {
  if (value === undefined || value === "") return null;
  const from = args.value("array-throttle") === undefined ? "OUTERLOOP_ARRAY_THROTTLE" : "array-throttle";
  if (!/^[1-9][0-9]{0,5}$/.test(value)) {
    const what = from === "array-throttle" ? "--array-throttle" : from;
    throw new BadInputError(`Invalid ${what} ${JSON.stringify(value)}: expected a whole number from 1 (tasks at once)`);
  }
  return Number(value);
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
