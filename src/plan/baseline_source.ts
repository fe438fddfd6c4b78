import * as z from "zod/mini";
import { lazy } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import {
  type BaselineCacheEntry,
  type CachedPair,
  cachedPairsOf,
  pyFloat,
  readBaselineCache,
  writeBaselineCache,
} from "../measure/baseline_cache.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { readRunFile, type RunRecord } from "../rundir/run_record.ts";

/**
 * Where a run's baseline comes from when its contract says
 * `baseline: "cached"`. The run keeps its own copy of the cache entry it took
 * (`baseline-cached.json`), taken at the first pass, so every later resume
 * uses the same baseline even if the shared cache changes meanwhile: the
 * plan stays a function of the run dir alone.
 *
 * A single-pair design (max_repeats 1) takes the reference's one `value`,
 * measured under whatever seed it was (the reference's behaviour and format).
 * A repeated design takes the entry's seed-paired values, and measures its
 * candidate under those same seeds — every pair stays paired; pairs beyond
 * what the cache holds are measured fresh on both sides and added to it.
 */

/** What the cache gives a run. */
export type CachedBaseline =
  | { readonly kind: "none" }
  /** A single-pair design: the baseline value (pair 1), whatever seed measured it. */
  | { readonly kind: "value"; readonly value: number }
  /** A repeated design: the baseline of pairs 1 … pairs.length, each with the seed its candidate must use. */
  | { readonly kind: "pairs"; readonly pairs: readonly CachedPair[] };

const snapshotSchema = lazy(() => z.looseObject({ value: z.unknown() }));

/** Whether a contract runs more than one pair (and so caches pairs, not one value). */
export function repeatedDesign(r: RunRecord): boolean {
  return r.contract.maxRepeats > 1;
}

/**
 * The baseline this run takes from the cache. With `take`, a value found in
 * the shared cache is snapshotted into the run dir (what a pass does);
 * without, nothing is written (what `show` does), and the answer is the one
 * the next pass would take.
 */
export function cachedBaseline(dir: RunDir, r: RunRecord, take: boolean): CachedBaseline {
  if (r.contract.baseline !== "cached") return { kind: "none" };
  const snapshot = readRunFile(dir.cachedBaseline, snapshotSchema, "cached baseline");
  let entry: BaselineCacheEntry | null = null;
  if (snapshot !== null) {
    const value = pyFloat(snapshot.value);
    if (value !== null && Number.isFinite(value)) entry = { value, data: snapshot };
  } else {
    entry = readBaselineCache(dir.baselineCache, r.contract.name, r.baseSha, determinants(r));
    if (entry !== null && !Number.isFinite(entry.value)) entry = null;
    if (entry !== null && take) atomicWriteJson(dir.cachedBaseline, { ...entry.data, cache_path: dir.baselineCache });
  }
  if (entry === null) return { kind: "none" };
  if (!repeatedDesign(r)) return { kind: "value", value: entry.value };
  const pairs = cachedPairsOf(entry);
  return pairs === null ? { kind: "none" } : { kind: "pairs", pairs };
}

/**
 * Records the baseline this run measured, for every later run on the same
 * base: one value (single pair), or every pair with its seed. The cache is an
 * optimisation: a write that fails (a read-only dir, a directory where the
 * entry should be) warns and the run goes on to decide.
 */
export function storeBaseline(dir: RunDir, r: RunRecord, pairs: readonly CachedPair[]): void {
  const first = pairs[0];
  if (first === undefined) return;
  try {
    writeBaselineCache(dir.baselineCache, r.contract.name, r.baseSha, {
      value: first.value,
      seed: repeatedDesign(r) ? first.seed : r.seed,
      runTag: r.runTag,
      ...determinants(r),
      ...(repeatedDesign(r) ? { pairs } : {}),
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
    summary: r.contract.summary,
  };
}
