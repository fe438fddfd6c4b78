import { mkdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import * as z from "zod/mini";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { BadInputError } from "../errors.ts";
import { hexDigest } from "../runtime/digest.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { isAbsent } from "../fs/absent.ts";
import { type Contract, contractFromJson, contractSchema, contractToJson } from "../contract/contract.ts";
import type { RunDir } from "./run_dir.ts";
import { fastRunRecordJson } from "./run_record_fast.ts";

/**
 * `run.json`: every input the plan depends on, frozen when `measure` starts,
 * so a wake process rebuilds the identical plan from the run dir alone —
 * `resume` reads nothing else (not the contract file, not the branch refs,
 * which may have moved). A damaged record is reported, never repaired or
 * removed: it is the only copy of what the run was.
 */

/** A commit sha: 40 hex digits (64 in a SHA-256 repository), lowercase as git prints it. */
export const shaSchema = lazy(() =>
  z.string().check(z.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, {
    error: "expected a full lowercase commit sha",
  }))
);

/** `run.json`'s schema (exported for the test that holds the fast path, run_record_fast.ts, beside it). */
export const runRecordSchema = lazy(() =>
  strict({
    format: z.literal(1, { error: "expected 1 (the only run record format this version reads)" }),
    created_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    repo: z.string().check(z.startsWith("/", { error: "expected an absolute path" })),
    base_ref: z.string(),
    candidate_ref: z.string(),
    base_sha: shaSchema(),
    candidate_sha: shaSchema(),
    contract: contractSchema(),
    contract_path: z.string(),
    seed: wholeNumber(0),
    run_tag: z.string().check(z.minLength(1, { error: "expected a non-empty string" })),
    image: z.string(),
    account: z.string(),
    partition: z.string(),
    gpu_partition: z.string(),
    gpu_account: z.string(),
    // the wake jobs' lane, when it is not the evals' (a site's fast lane); absent when not given
    wake_partition: z.optional(z.string()),
    wake_qos: z.optional(z.string()),
    // Slurm's -M: the one cluster every scheduler command names; absent for slurm.conf's own
    cluster: z.optional(z.string().check(z.minLength(1, { error: "expected a non-empty string" }))),
    // job arrays: absent = on; false only when turned off (--no-arrays); a throttle only when set
    arrays: z.optional(z.boolean()),
    array_throttle: z.optional(wholeNumber(1)),
    // --smoke: the candidates' first measures alone before the first look is sent; absent = off
    smoke: z.optional(z.literal(true)),
    compute: z.enum(["local", "slurm", "sge"]),
    seed_cache: z.nullable(z.string()),
    command_line: z.array(z.string()),
    // absent: a measure run (the only kind before calibration existed, and the reference's)
    kind: z.optional(z.enum(["measure", "calibrate"])),
    // a round's candidates, in order (the first is candidate_ref/candidate_sha); absent for one candidate
    candidates: z.optional(
      z.array(strict({ ref: z.string(), sha: shaSchema() })).check(
        z.minLength(2, { error: "expected two or more candidates (one is candidate_ref / candidate_sha alone)" }),
      ),
    ),
    // each candidate's label (--label, else its commit's subject), in order; absent before labels existed
    labels: z.optional(z.array(z.string())),
  }).check(z.superRefine((j, ctx) => {
    const count = j.candidates?.length ?? 1;
    if (j.labels !== undefined && j.labels.length !== count) {
      ctx.addIssue({
        code: "custom",
        path: ["labels"],
        message: `expected one label per candidate (${count})`,
        input: j.labels,
      });
    }
    const first = j.candidates?.[0];
    if (first !== undefined && (first.ref !== j.candidate_ref || first.sha !== j.candidate_sha)) {
      ctx.addIssue({
        code: "custom",
        path: ["candidates", 0],
        message: "expected the first candidate to be candidate_ref / candidate_sha",
        input: first,
      });
    }
  }))
);

/** `run.json` as its schema reads it (snake_case, the contract's defaults filled in). */
export type RunRecordJson = z.output<ReturnType<typeof runRecordSchema>>;

/** The frozen inputs of one run. Strings that were not given are "". */
export interface RunRecord {
  readonly format: 1;
  /** When `measure` froze the record (ISO 8601). */
  readonly createdAt: string;
  /** The repository, absolute. */
  readonly repo: string;
  /** The refs as the user gave them; informational, the shas are what count. */
  readonly baseRef: string;
  readonly candidateRef: string;
  readonly baseSha: string;
  /** The candidate's sha: a round's first candidate's. */
  readonly candidateSha: string;
  /**
   * Every candidate in order, arm 1 first (a round of K ≥ 2 measures them
   * against the one baseline); one candidate is `[{ref: candidateRef, sha: candidateSha}]`.
   */
  readonly candidates: readonly RunCandidate[];
  readonly contract: Contract;
  /** Where the contract was read from; informational, `contract` is what counts. */
  readonly contractPath: string;
  /** The seed shared by each base/candidate pair; 0 = none. */
  readonly seed: number;
  readonly runTag: string;
  /** The apptainer image; "" = run on the host. */
  readonly image: string;
  readonly account: string;
  readonly partition: string;
  readonly gpuPartition: string;
  readonly gpuAccount: string;
  /** Where wake jobs go: "" for the eval partition. */
  readonly wakePartition: string;
  /** The wake jobs' QOS: "" for none. */
  readonly wakeQos: string;
  /** The Slurm cluster every scheduler command names (`-M`, compute/cluster.ts): "" for slurm.conf's own. */
  readonly cluster: string;
  /** Whether a look's jobs may go out as job arrays (`--no-arrays` turns them off for sites that forbid them). */
  readonly arrays: boolean;
  /** At most this many of an array's tasks run at once (`--array-throttle`, sbatch's `%K`); null for no throttle. */
  readonly arrayThrottle: number | null;
  /**
   * `--smoke`: each candidate's first measure (pair 1's benchmark) runs alone
   * before the first look is sent, so a candidate that crashes every time
   * costs one eval, not a look.
   */
  readonly smoke: boolean;
  readonly compute: "local" | "slurm" | "sge";
  /**
   * "measure": base against candidate, to a verdict. "calibrate": the base
   * against itself (an A/A run: candidateSha = baseSha), to a noise report.
   */
  readonly kind: "measure" | "calibrate";
  /** The seed cache copied into each checkout, or null for none. */
  readonly seedCache: string | null;
  /** How the run was started; informational, the wake runs `resume <run dir>`. */
  readonly commandLine: readonly string[];
  /**
   * Each candidate's label, in `candidates`' order: `--label`, else its
   * commit's subject; "" where none is known (a record from before labels).
   * Informational: not part of the run's identity.
   */
  readonly labels: readonly string[];
}

/** One candidate of a run: the ref as given and its sha. */
export interface RunCandidate {
  readonly ref: string;
  readonly sha: string;
}

/** Why a run-dir file was refused. */
export type RunRecordProblem = "missing" | "unreadable" | "damaged" | "invalid" | "other-run" | "disputed";

/** A run-dir file that is missing, damaged, or belongs to another run; bad input (exit 2). */
export class RunRecordError extends BadInputError {
  override name = "RunRecordError";
  /** The file at fault. */
  readonly path: string;
  /** What is wrong with it: absent, not readable, not JSON, failing validation, or another run's. */
  readonly problem: RunRecordProblem;
  constructor(path: string, problem: RunRecordProblem, message: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
    this.problem = problem;
  }
}

function toJson(rec: RunRecord): z.input<ReturnType<typeof runRecordSchema>> {
  return {
    format: rec.format,
    created_at: rec.createdAt,
    repo: rec.repo,
    base_ref: rec.baseRef,
    candidate_ref: rec.candidateRef,
    base_sha: rec.baseSha,
    candidate_sha: rec.candidateSha,
    contract: contractToJson(rec.contract),
    contract_path: rec.contractPath,
    seed: rec.seed,
    run_tag: rec.runTag,
    image: rec.image,
    account: rec.account,
    partition: rec.partition,
    gpu_partition: rec.gpuPartition,
    gpu_account: rec.gpuAccount,
    ...(rec.wakePartition === "" ? {} : { wake_partition: rec.wakePartition }),
    ...(rec.wakeQos === "" ? {} : { wake_qos: rec.wakeQos }),
    ...(rec.cluster === "" ? {} : { cluster: rec.cluster }),
    ...(rec.arrays ? {} : { arrays: false }),
    ...(rec.arrayThrottle === null ? {} : { array_throttle: rec.arrayThrottle }),
    ...(rec.smoke ? { smoke: true as const } : {}),
    compute: rec.compute,
    seed_cache: rec.seedCache,
    command_line: [...rec.commandLine],
    // written only for a calibration: a measure run's record keeps today's keys
    ...(rec.kind === "measure" ? {} : { kind: rec.kind }),
    // written only for a round: a run of one candidate keeps today's keys
    ...(rec.candidates.length < 2 ? {} : { candidates: rec.candidates.map((c) => ({ ref: c.ref, sha: c.sha })) }),
    ...(rec.labels.every((l) => l === "") ? {} : { labels: [...rec.labels] }),
  };
}

function fromJson(j: RunRecordJson): RunRecord {
  return {
    format: j.format,
    createdAt: j.created_at,
    repo: j.repo,
    baseRef: j.base_ref,
    candidateRef: j.candidate_ref,
    baseSha: j.base_sha,
    candidateSha: j.candidate_sha,
    contract: contractFromJson(j.contract),
    contractPath: j.contract_path,
    seed: j.seed,
    runTag: j.run_tag,
    image: j.image,
    account: j.account,
    partition: j.partition,
    gpuPartition: j.gpu_partition,
    gpuAccount: j.gpu_account,
    wakePartition: j.wake_partition ?? "",
    wakeQos: j.wake_qos ?? "",
    cluster: j.cluster ?? "",
    arrays: j.arrays ?? true,
    arrayThrottle: j.array_throttle ?? null,
    smoke: j.smoke ?? false,
    compute: j.compute,
    kind: j.kind ?? "measure",
    candidates: j.candidates ?? [{ ref: j.candidate_ref, sha: j.candidate_sha }],
    seedCache: j.seed_cache,
    commandLine: j.command_line,
    labels: j.labels ?? (j.candidates ?? [0]).map(() => ""),
  };
}

/** Fields that describe how and when, not what: a second `measure` of the same run may differ in them. */
const INFORMATIONAL = new Set(["created_at", "command_line", "labels"]);

/**
 * The identity of a run: the sha1 of its record's JSON without the
 * informational fields — what a `decision.json` records so that it is only
 * ever returned for the run it decided (a leftover or copied decision of
 * another run is refused, never trusted).
 */
export function runIdentity(rec: RunRecord): string {
  const json = toJson(rec) as Record<string, unknown>;
  const kept = Object.keys(json).filter((k) => !INFORMATIONAL.has(k)).sort();
  return hexDigest("sha1", JSON.stringify(kept.map((k) => [k, json[k]])));
}

/** What `measure` was given, resolved and checked: the run record less what defaults from an earlier record. */
export type RunInputs =
  & Omit<RunRecord, "format" | "createdAt" | "seed" | "runTag" | "commandLine" | "kind" | "labels">
  & {
    /** Each candidate's label; absent: none known (an earlier record's are kept). */
    readonly labels?: readonly string[];
    /** Default "measure". */
    readonly kind?: RunRecord["kind"];
    /** `--seed`, when given. */
    readonly seed: number | undefined;
    /** `--run-tag`, when given; else the earlier record's, else the run dir's name. */
    readonly runTag: string | undefined;
    readonly commandLine: readonly string[];
  };

/**
 * The record a `measure` freezes. Against an earlier record of the run dir
 * (a repeated `measure`), the informational fields (labels included) and the defaults a user
 * did not repeat — the drawn seed, the run tag — are the earlier ones, so
 * repeating the command continues the run rather than starting another;
 * every other field is what was given, and `writeRunRecord` refuses a
 * difference. A seed is drawn (`drawSeed`) only when the contract resamples.
 */
export function assembleRunRecord(
  dir: RunDir,
  inputs: RunInputs,
  existing: RunRecord | null,
  ctx: { readonly now: () => number; readonly drawSeed: () => number },
): RunRecord {
  const c = inputs.contract;
  const resamples = c.seedEnv !== "" || c.siblings.some((s) => s.seedEnv !== "");
  return {
    ...inputs,
    kind: inputs.kind ?? "measure",
    format: 1,
    createdAt: existing?.createdAt ?? new Date(ctx.now()).toISOString(),
    seed: inputs.seed ?? existing?.seed ?? (resamples ? ctx.drawSeed() : 0),
    runTag: inputs.runTag ?? existing?.runTag ?? basename(dir.path),
    commandLine: existing?.commandLine ?? inputs.commandLine,
    // informational like the command line: the first measure's labels stand
    labels: existing !== null && existing.labels.some((l) => l !== "")
      ? existing.labels
      : inputs.labels ?? inputs.candidates.map(() => ""),
  };
}

/**
 * Freezes `rec` as `<runDir>/run.json` (atomically). When the run dir
 * already holds a record of the same run — equal in every field but
 * `created_at` and `command_line` — it is kept as it is and returned, so a
 * repeated `measure` continues the run it started. A record of a different
 * run is never overwritten: `RunRecordError` names the fields that differ.
 * Returns the record now in force.
 */
export function writeRunRecord(dir: RunDir, rec: RunRecord): RunRecord {
  const path = dir.runRecord;
  const json = toJson(rec);
  const checked = runRecordSchema().safeParse(json);
  if (!checked.success) {
    throw new TypeError(`Refusing to write an invalid run record:\n${z.prettifyError(checked.error)}`);
  }
  let existing: RunRecord | null;
  try {
    existing = readRunRecord(dir);
  } catch (err) {
    if (err instanceof RunRecordError && err.problem === "missing") existing = null;
    else throw err;
  }
  if (existing === null) {
    mkdirSync(dir.path, { recursive: true });
    atomicWriteJson(path, json);
    return rec;
  }
  const old = toJson(existing) as Record<string, unknown>;
  const differ = Object.keys(json).filter((k) =>
    !INFORMATIONAL.has(k) && JSON.stringify(old[k]) !== JSON.stringify((json as Record<string, unknown>)[k])
  );
  if (differ.length > 0) {
    throw new RunRecordError(
      path,
      "other-run",
      `Run dir ${JSON.stringify(dir.path)} already holds another run in ${JSON.stringify(path)} ` +
        `(its ${differ.join(", ")} differ); ` +
        `pick a new --run-dir, or \`outerloop resume\` the run it holds`,
    );
  }
  return existing;
}

/**
 * Reads `<runDir>/run.json`. Missing, unreadable, not JSON (a truncated
 * file), or failing validation: a `RunRecordError` naming the file and each
 * bad field. Only ever reads the file.
 */
export function readRunRecord(dir: RunDir): RunRecord {
  const path = dir.runRecord;
  const json = readRunFile(path, runRecordSchema, "run record", fastRunRecordJson);
  if (json === null) {
    throw new RunRecordError(
      path,
      "missing",
      `No run record at ${JSON.stringify(path)}: ` +
        `${JSON.stringify(dir.path)} is not a run dir made by \`outerloop measure\``,
    );
  }
  return fromJson(json);
}

/**
 * Reads and validates one JSON file of a run dir (`what` names it in
 * messages) against `schema`, built only when there is a file to check:
 * null when absent; a `RunRecordError` naming the file and each
 * bad field when unreadable, not JSON or invalid. Never modifies the file:
 * a damaged file stays for a person to look at. `fast`, when given, is the
 * schema checked by hand for the common valid shape (the schema's output, or
 * null when unsure): what it accepts skips building and running the schema.
 */
export function readRunFile<S extends z.ZodMiniType>(
  path: string,
  schema: () => S,
  what: string,
  fast?: (json: unknown) => z.output<S> | null,
): z.output<S> | null {
  if (isAbsent(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    const why = (err as Error).message;
    throw new RunRecordError(path, "unreadable", `Cannot read ${what} ${JSON.stringify(path)}: ${why}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RunRecordError(
      path,
      "damaged",
      `The ${what} ${JSON.stringify(path)} is damaged (not JSON: ${(err as Error).message}); ` +
        `it is left as it is for you to inspect`,
      { cause: err },
    );
  }
  const quick = fast?.(json) ?? null;
  if (quick !== null) return quick;
  const parsed = schema().safeParse(json);
  if (!parsed.success) {
    throw new RunRecordError(
      path,
      "invalid",
      `The ${what} ${JSON.stringify(path)} is invalid; it is left as it is for you to inspect:\n` +
        z.prettifyError(parsed.error),
    );
  }
  return parsed.data;
}
