import { fastContractJson, isRecord, isWhole, onlyKeys } from "../contract/contract_fast.ts";
import type { RunRecordJson } from "./run_record.ts";

/**
 * `run.json`'s schema checked by hand, for the shape a record `measure`
 * wrote has: the same output as the zod schema's (run_record.ts), or null
 * when the value is not plainly valid, and then the schema decides and words
 * the refusal. Every `resume` and `show` reads the record, so its schema's
 * building and running was a good part of each start (and of a pass over a
 * record of 500 siblings, most of it). Sound, not complete: what this
 * accepts the schema accepts, with the same output
 * (tests/rundir/run_record_fast_test.ts holds the two side by side).
 */
export function fastRunRecordJson(v: unknown): RunRecordJson | null {
  if (!isRecord(v) || !onlyKeys(v, KEYS)) return null;
  if (v.format !== 1 || !isTimestamp(v.created_at) || typeof v.repo !== "string" || !v.repo.startsWith("/")) {
    return null;
  }
  const { base_ref, candidate_ref, base_sha, candidate_sha, contract_path, run_tag } = v;
  if (typeof base_ref !== "string" || typeof candidate_ref !== "string" || !isSha(base_sha) || !isSha(candidate_sha)) {
    return null;
  }
  const contract = fastContractJson(v.contract);
  if (contract === null || typeof contract_path !== "string" || !isWhole(v.seed, 0)) return null;
  if (typeof run_tag !== "string" || run_tag.length < 1) return null;
  const { image, account, partition, gpu_partition, gpu_account, wake_partition, wake_qos, cluster } = v;
  if (!allStrings(image, account, partition, gpu_partition, gpu_account)) return null;
  if (!optionalString(wake_partition) || !optionalString(wake_qos)) return null;
  if (cluster !== undefined && (typeof cluster !== "string" || cluster === "")) return null;
  const { arrays, array_throttle, compute, seed_cache, command_line, kind, candidates } = v;
  if (arrays !== undefined && typeof arrays !== "boolean") return null;
  if (array_throttle !== undefined && !isWhole(array_throttle, 1)) return null;
  if (v.smoke !== undefined && v.smoke !== true) return null;
  if (compute !== "local" && compute !== "slurm" && compute !== "sge") return null;
  if (seed_cache !== null && typeof seed_cache !== "string") return null;
  if (!Array.isArray(command_line) || !command_line.every((a) => typeof a === "string")) return null;
  if (kind !== undefined && kind !== "measure" && kind !== "calibrate") return null;
  const round = candidates === undefined ? undefined : fastCandidates(candidates, candidate_ref, candidate_sha);
  if (round === null) return null;
  const labels = v.labels;
  if (labels !== undefined && !(Array.isArray(labels) && labels.every((l) => typeof l === "string"))) return null;
  if (labels !== undefined && labels.length !== (round?.length ?? 1)) return null;
  return {
    format: 1,
    created_at: v.created_at,
    repo: v.repo,
    base_ref,
    candidate_ref,
    base_sha,
    candidate_sha,
    contract,
    contract_path,
    seed: v.seed,
    run_tag,
    image: image as string,
    account: account as string,
    partition: partition as string,
    gpu_partition: gpu_partition as string,
    gpu_account: gpu_account as string,
    ...(wake_partition === undefined ? {} : { wake_partition: wake_partition as string }),
    ...(wake_qos === undefined ? {} : { wake_qos: wake_qos as string }),
    ...(cluster === undefined ? {} : { cluster }),
    ...(arrays === undefined ? {} : { arrays }),
    ...(array_throttle === undefined ? {} : { array_throttle }),
    ...(v.smoke === undefined ? {} : { smoke: true as const }),
    compute,
    seed_cache,
    command_line: [...command_line],
    ...(kind === undefined ? {} : { kind }),
    ...(round === undefined ? {} : { candidates: round }),
    ...(labels === undefined ? {} : { labels: [...labels] as string[] }),
  };
}

const KEYS: ReadonlySet<string> = new Set([
  "format",
  "created_at",
  "repo",
  "base_ref",
  "candidate_ref",
  "base_sha",
  "candidate_sha",
  "contract",
  "contract_path",
  "seed",
  "run_tag",
  "image",
  "account",
  "partition",
  "gpu_partition",
  "gpu_account",
  "wake_partition",
  "wake_qos",
  "cluster",
  "arrays",
  "array_throttle",
  "smoke",
  "compute",
  "seed_cache",
  "command_line",
  "kind",
  "candidates",
  "labels",
]);

/** A round's candidates: two or more `{ref, sha}`, the first the record's own candidate; null when not plainly so. */
function fastCandidates(v: unknown, ref: string, sha: string): { ref: string; sha: string }[] | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const out: { ref: string; sha: string }[] = [];
  for (const c of v) {
    if (!isRecord(c) || !onlyKeys(c, CANDIDATE_KEYS) || typeof c.ref !== "string" || !isSha(c.sha)) return null;
    out.push({ ref: c.ref, sha: c.sha });
  }
  return out[0]!.ref === ref && out[0]!.sha === sha ? out : null;
}
const CANDIDATE_KEYS: ReadonlySet<string> = new Set(["ref", "sha"]);

const isSha = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v);
const allStrings = (...vs: unknown[]) => vs.every((x) => typeof x === "string");
const optionalString = (v: unknown) => v === undefined || typeof v === "string";

/**
 * A timestamp as `Date#toISOString` writes it (what `measure` freezes), and
 * a real instant: the round trip gives it back unchanged only for a valid
 * date and time, which zod's ISO 8601 check accepts. Any other form, which
 * the schema may well accept too, is left to it.
 */
function isTimestamp(v: unknown): v is string {
  if (typeof v !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/.test(v)) {
    return false;
  }
  const t = Date.parse(v);
  return Number.isFinite(t) && new Date(t).toISOString() === v;
}
