import { join } from "node:path";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { pyFloat, readBaselineCache, writeBaselineCache } from "../measure/baseline_cache.ts";
import { readRunFile } from "./run_record.ts";
import type { RunRecord } from "./run_record.ts";
import { z } from "zod";

/**
 * The run's own copy of the cache entry its baseline came from. Taken at the
 * first pass, so every later resume of the run uses the same baseline even
 * if the shared cache changes meanwhile: the plan stays a function of the
 * run dir alone.
 */
export const CACHED_BASELINE_FILE = "baseline-cached.json";

const snapshotSchema = z.looseObject({ value: z.unknown() });

/** The cached baseline this run already took, or null; reads only the run dir. */
export function cachedBaselineSnapshot(runDir: string): number | null {
  const snapshot = readRunFile(join(runDir, CACHED_BASELINE_FILE), snapshotSchema, "cached baseline");
  if (snapshot === null) return null;
  const value = pyFloat(snapshot.value);
  return value !== null && Number.isFinite(value) ? value : null;
}

/**
 * The cached baseline value this run uses, or null when it measures its
 * own: only for `baseline: "cached"` contracts with a valid entry measured
 * under the same determinants (image, command, metric, seed var, GPUs).
 */
export function cachedBaseline(runDir: string, r: RunRecord, cacheDir: string): number | null {
  if (r.contract.baseline !== "cached") return null;
  const taken = cachedBaselineSnapshot(runDir);
  if (taken !== null) return taken;
  const snapshotPath = join(runDir, CACHED_BASELINE_FILE);
  const entry = readBaselineCache(cacheDir, r.contract.name, r.baseSha, determinants(r));
  if (entry === null || !Number.isFinite(entry.value)) return null;
  atomicWriteJson(snapshotPath, { ...entry.data, cache_path: cacheDir });
  return entry.value;
}

/** Records a baseline this run measured, for every later run on the same base. */
export function storeBaseline(cacheDir: string, r: RunRecord, value: number): void {
  writeBaselineCache(cacheDir, r.contract.name, r.baseSha, {
    value,
    seed: r.seed,
    runTag: r.runTag,
    ...determinants(r),
  });
}

function determinants(r: RunRecord) {
  return {
    image: r.image,
    command: r.contract.command,
    metric: r.contract.metric,
    seedEnv: r.contract.seedEnv,
    gpus: r.contract.gpus,
  };
}
