import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { DEFAULT_SUMMARY, type Summary } from "../stats/samples.ts";

/**
 * The target-wide cache of base-tree measurements (`baseline: cached`), file
 * for file compatible with the reference's `read_baseline_cache` /
 * `write_baseline_cache`: same path, same JSON keys, and the same rules for
 * what reads as a usable entry — including Python's `float()` and `int()`
 * on the stored values, so an entry one implementation accepts, the other
 * accepts.
 *
 * Where the reference would crash rather than answer (`int("2.0")` on the
 * stored gpus, `int(nan)`), this reads the entry as stale: a re-measure is the
 * safe answer. Not mirrored: Python's `json` reads the non-standard `NaN` /
 * `Infinity` tokens its writer emits for non-finite values; such a file reads
 * as unreadable here, which again only costs a re-measure.
 */

/** The determinants an entry must match to be reused (everything but the tree and the seed value). */
export interface BaselineDeterminants {
  readonly image?: string;
  readonly command?: string;
  readonly metric?: string;
  readonly seedEnv?: string;
  readonly gpus?: number;
  /**
   * How the benchmark's samples became the value (our extension): stored only
   * when not the default median, so an entry without it reads as median and
   * the reference's entries stay key for key.
   */
  readonly summary?: Summary;
}

/** What a reusable cache entry yields. */
export interface BaselineCacheEntry {
  /** The stored `value`, read the way Python's `float()` reads it. */
  readonly value: number;
  /** The whole stored object, verbatim (`seed`, `run`, `base_sha`, …). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** `<dir>/<benchmark>@<baseSha>.json` — the reference's cache file name. */
export function baselineCachePath(dir: string, benchmark: string, baseSha: string): string {
  return join(dir, `${benchmark}@${baseSha}.json`);
}

/**
 * The cached base-tree measurement for (benchmark, base sha), or null when
 * there is none, it is unreadable or malformed, or it is STALE: measured under
 * a different image, command, metric key, seed variable, GPU count or
 * summary of samples than the candidate will be. A comparison across
 * determinants is not a comparison.
 */
export function readBaselineCache(
  dir: string,
  benchmark: string,
  baseSha: string,
  want: BaselineDeterminants = {},
): BaselineCacheEntry | null {
  let data: unknown;
  try {
    const bytes = readFileSync(baselineCachePath(dir, benchmark, baseSha));
    // fatal + ignoreBOM: bad UTF-8 or a BOM fail here as they fail Python's json.loads
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const obj = data as Record<string, unknown>;
  const get = (key: string, missing: unknown): unknown => (Object.hasOwn(obj, key) ? obj[key] : missing);
  if (!Object.hasOwn(obj, "value")) return null;
  const value = pyFloat(obj["value"]);
  if (value === null) return null;
  const gpus = pyInt(pyTruthy(get("gpus", 0)) ? get("gpus", 0) : 0);
  if (
    get("image", "") !== (want.image ?? "") ||
    get("command", "") !== (want.command ?? "") ||
    get("metric", "") !== (want.metric ?? "") ||
    get("seed_env", "") !== (want.seedEnv ?? "") ||
    gpus === null ||
    gpus !== (want.gpus ?? 0) ||
    get("summary", DEFAULT_SUMMARY) !== (want.summary ?? DEFAULT_SUMMARY)
  ) {
    return null;
  }
  return { value, data: obj };
}

/** One seed-paired baseline measurement: the seed it ran under and its value. */
export interface CachedPair {
  readonly seed: number;
  readonly value: number;
}

/** An orchestrator-measured baseline and the determinants it was measured under. */
export interface BaselineRecord extends BaselineDeterminants {
  readonly value: number;
  readonly seed: number;
  readonly runTag: string;
  /**
   * A repeated design's baseline pairs, pair 1 first (its seed and value are
   * also `seed` and `value`, so the reference reads the entry as pair 1).
   * Absent for a single pair: the entry is then the reference's, key for key.
   */
  readonly pairs?: readonly CachedPair[];
  /** When and where the baseline was measured (pair 1's), beside the reference's keys, which it ignores. */
  readonly origin?: BaselineOrigin;
}

/** When and where a cached baseline was measured: `measured_at` and `host` in the entry; null when unknown. */
export interface BaselineOrigin {
  /** ISO 8601: when its command ended. */
  readonly measuredAt: string | null;
  readonly host: string | null;
}

/** The origin an entry records (entries of the reference and of earlier outerloops have none: nulls). */
export function originOf(entry: BaselineCacheEntry): BaselineOrigin {
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return { measuredAt: text(entry.data["measured_at"]), host: text(entry.data["host"]) };
}

/**
 * The seed-paired values an entry holds, pair 1 first: its `pairs` (our
 * extension) when well-formed, else the reference's single `value` under its
 * `seed`. Null when neither reads: then the entry cannot pair a candidate.
 */
export function cachedPairsOf(entry: BaselineCacheEntry): CachedPair[] | null {
  const raw = entry.data["pairs"];
  if (Array.isArray(raw) && raw.length > 0) {
    const pairs = raw.map((p) => {
      const o = (typeof p === "object" && p !== null ? p : {}) as Record<string, unknown>;
      return { seed: o["seed"], value: o["value"] };
    });
    const ok = pairs.every((p) =>
      typeof p.value === "number" && Number.isFinite(p.value) && Number.isSafeInteger(p.seed) && (p.seed as number) >= 0
    );
    if (ok) return pairs as CachedPair[];
  }
  const seed = pyInt(entry.data["seed"] ?? 0);
  return seed !== null && seed >= 0 && Number.isFinite(entry.value) ? [{ seed, value: entry.value }] : null;
}

/**
 * Records an orchestrator-measured baseline for every later attempt on this
 * base — never anything an author produced. Atomic (a unique tmp per writer,
 * then rename): two slots measuring the same base concurrently both land a
 * valid file, the last writer wins, and both values are real measurements.
 * Non-ASCII is written as `\uXXXX` escapes, as Python's `json.dump` does, so
 * the file reads under any locale.
 */
export function writeBaselineCache(dir: string, benchmark: string, baseSha: string, rec: BaselineRecord): void {
  if (!Number.isFinite(rec.value)) {
    throw new RangeError(`Baseline value must be a finite number, got ${String(rec.value)}`);
  }
  const entry = {
    value: rec.value,
    seed: rec.seed,
    run: rec.runTag,
    base_sha: baseSha,
    image: rec.image ?? "",
    command: rec.command ?? "",
    metric: rec.metric ?? "",
    seed_env: rec.seedEnv ?? "",
    gpus: rec.gpus ?? 0,
    ...((rec.summary ?? DEFAULT_SUMMARY) === DEFAULT_SUMMARY ? {} : { summary: rec.summary }),
    ...(rec.pairs === undefined ? {} : { pairs: rec.pairs.map((p) => ({ seed: p.seed, value: p.value })) }),
    ...(rec.origin?.measuredAt ? { measured_at: rec.origin.measuredAt } : {}),
    ...(rec.origin?.host ? { host: rec.origin.host } : {}),
  };
  const text = JSON.stringify(entry).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  mkdirSync(dir, { recursive: true });
  atomicWriteFile(baselineCachePath(dir, benchmark, baseSha), text);
}

// ---- Python's float() and int() on JSON values --------------------------

/** Python truthiness of a JSON value. */
function pyTruthy(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true; // NaN is truthy in Python
}

/** Python's `float(v)` of a JSON value, or null where Python raises. */
export function pyFloat(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "string") return null;
  const s = pyNumericText(v);
  if (s === null) return null;
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s) ? Number(s) : null;
}

/** Python's `int(v)` (base 10) of a JSON value, or null where Python raises. */
function pyInt(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) + 0 : null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "string") return null;
  const s = pyNumericText(v);
  return s !== null && /^[+-]?\d+$/.test(s) ? Number(s) + 0 : null;
}

/** Python's unicode whitespace (`str.isspace`) outside ASCII. */
const WIDE_SPACE = /[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/**
 * What Python's number parsers see of a string: non-ASCII whitespace becomes a
 * space and any Unicode decimal digit its ASCII digit (other non-ASCII fails);
 * ASCII whitespace is stripped at the ends; underscores between digits are
 * dropped, any other underscore fails. Null = Python raises ValueError.
 */
function pyNumericText(raw: string): string | null {
  let out = "";
  for (const ch of raw) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x7f) out += ch;
    else if (WIDE_SPACE.test(ch)) out += " ";
    else if (/\p{Nd}/u.test(ch)) out += String(decimalValue(cp));
    else return null;
  }
  out = out.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  if (/(^|[^0-9])_|_($|[^0-9])/.test(out)) return null;
  return out.replaceAll("_", "");
}

/**
 * The value of a Unicode decimal digit. Decimal digits come in contiguous
 * runs 0..9 (a Unicode stability guarantee), so a contiguous stretch of them
 * starts at a zero and the value is the distance from its start, mod 10.
 */
function decimalValue(cp: number): number {
  let k = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - k - 1))) k++;
  return k % 10;
}
