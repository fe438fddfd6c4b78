import { z } from "zod";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import { pyFloat, readBaselineCache, writeBaselineCache } from "../measure/baseline_cache.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile, type RunRecord } from "./run_record.ts";

/**
 * Where a run's baseline value comes from when its contract says
 * `baseline: "cached"`. The run keeps its own copy of the cache entry it took
 * (`baseline-cached.json`), taken at the first pass, so every later resume
 * uses the same baseline even if the shared cache changes meanwhile: the
 * plan stays a function of the run dir alone.
 */

const snapshotSchema = z.looseObject({ value: z.unknown() });

/** The cached baseline this run already took, or null; reads only the run dir. */
export function cachedBaselineSnapshot(dir: RunDir): number | null {
  const snapshot = readRunFile(dir.cachedBaseline, snapshotSchema, "cached baseline");
  if (snapshot === null) return null;
  const value = pyFloat(snapshot.value);
  return value !== null && Number.isFinite(value) ? value : null;
}

/**
 * The cached baseline value this run uses, or null when it measures its
 * own: only for `baseline: "cached"` contracts with a valid entry measured
 * under the same determinants (image, command, metric, seed var, GPUs).
 * With `take`, a value found in the shared cache is snapshotted into the run
 * dir (what a pass does); without, nothing is written (what `show` does), and
 * the answer is the one the next pass would take.
 */
export function cachedBaseline(dir: RunDir, r: RunRecord, take: boolean): number | null {
  if (r.contract.baseline !== "cached") return null;
  const taken = cachedBaselineSnapshot(dir);
  if (taken !== null) return taken;
  const entry = readBaselineCache(dir.baselineCache, r.contract.name, r.baseSha, determinants(r));
  if (entry === null || !Number.isFinite(entry.value)) return null;
  if (take) atomicWriteJson(dir.cachedBaseline, { ...entry.data, cache_path: dir.baselineCache });
  return entry.value;
}

/**
 * Records a baseline this run measured, for every later run on the same
 * base. The cache is an optimisation: a write that fails (a read-only dir, a
 * directory where the entry should be) warns and the run goes on to decide.
 */
export function storeBaseline(dir: RunDir, r: RunRecord, value: number): void {
  try {
    writeBaselineCache(dir.baselineCache, r.contract.name, r.baseSha, {
      value,
      seed: r.seed,
      runTag: r.runTag,
      ...determinants(r),
    });
  } catch (err) {
    log.warn(`cannot write the baseline cache in ${JSON.stringify(dir.baselineCache)}: ${(err as Error).message}`);
  }
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
