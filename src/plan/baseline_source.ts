import * as z from "zod/mini";
import { lazy } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import {
  type BaselineCacheEntry,
  type BaselineOrigin,
  type CachedPair,
  cachedPairsOf,
  originOf,
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
  | { readonly kind: "value"; readonly value: number; readonly origin: BaselineOrigin }
  /** A repeated design: the baseline of pairs 1 … pairs.length, each with the seed its candidate must use. */
  | { readonly kind: "pairs"; readonly pairs: readonly CachedPair[]; readonly origin: BaselineOrigin };

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
  const origin = originOf(entry);
  if (!repeatedDesign(r)) return { kind: "value", value: entry.value, origin };
  const pairs = cachedPairsOf(entry);
  return pairs === null ? { kind: "none" } : { kind: "pairs", pairs, origin };
}

/**
 * Records the baseline this run measured, for every later run on the same
 * base: one value (single pair), or every pair with its seed. The cache is an
 * optimisation: a write that fails (a read-only dir, a directory where the
 * entry should be) warns and the run goes on to decide.
 */
export function storeBaseline(
  dir: RunDir,
  r: RunRecord,
  pairs: readonly CachedPair[],
  origin: BaselineOrigin = { measuredAt: null, host: null },
): void {
  const first = pairs[0];
  if (first === undefined) return;
  try {
    writeBaselineCache(dir.baselineCache, r.contract.name, r.baseSha, {
      value: first.value,
      seed: repeatedDesign(r) ? first.seed : r.seed,
      runTag: r.runTag,
      ...determinants(r),
      ...(repeatedDesign(r) ? { pairs } : {}),
      origin,
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

/** A cached baseline older than this is worth a warning: the machine, its load and its software move. */
export const STALE_BASELINE_MS = 24 * 60 * 60 * 1000;

/**
 * What a verdict on a cached baseline must say about it: how old the entry is
 * and where it ran, with a warning when it ran on another host than the
 * candidate, or more than a day before it — a baseline measured in a quieter
 * hour, or on a faster node, can turn a speed-up into an apparent slow-down.
 * `candidateHost` is where the candidate ran ("" when unknown).
 */
export function cacheNotes(cache: CachedBaseline, candidateHost: string, now: number): string[] {
  if (cache.kind === "none") return [];
  const { measuredAt, host } = cache.origin;
  const at = measuredAt === null ? NaN : Date.parse(measuredAt);
  const age = Number.isNaN(at) ? null : now - at;
  const when = age === null ? "at an unknown time" : `${formatAge(age)} ago (${measuredAt})`;
  const where = host === null ? "on an unknown host" : `on ${JSON.stringify(host)}`;
  const notes = [`The baseline comes from the cache: measured ${when} ${where}.`];
  if (host !== null && candidateHost !== "" && host !== candidateHost) {
    notes.push(
      `Warning: the cached baseline ran on ${JSON.stringify(host)}, the candidate on ${
        JSON.stringify(candidateHost)
      }: ` +
        'a difference between hosts reads as an effect; use baseline "measure" (or pairing "same-job") to compare on one',
    );
  }
  if (age !== null && age > STALE_BASELINE_MS) {
    notes.push(
      `Warning: the cached baseline is ${formatAge(age)} old: a machine's load and software drift over days; ` +
        'use baseline "measure" to compare with a fresh one',
    );
  }
  if (age === null || host === null) {
    notes.push("Warning: the cache entry does not say when or where it was measured (written by an older version).");
  }
  return notes;
}

function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}
