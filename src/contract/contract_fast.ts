import { DEFAULT_CPUS, DEFAULT_MEM, isMemorySize } from "../compute/job_spec.ts";
import { DEFAULT_SUMMARY, SUMMARIES } from "../stats/samples.ts";
import type { ContractJson } from "./contract.ts";
import {
  DEFAULT_CONFIDENCE,
  DEFAULT_PAIRING,
  DEFAULT_REPEATS,
  isThreshold,
  seedEnvProblem,
  textProblem,
  unitProblem,
} from "./field_checks.ts";
import { validateName } from "./names.ts";

/**
 * The contract's schema checked by hand, for the shape a valid contract has:
 * the same output as `contractSchema().safeParse(json).data` (defaults filled
 * in), or null when the value is not plainly valid, and then the zod schema
 * decides and words the refusal. Building the zod schema and running it is
 * most of what reading a run record costs (a record of 500 siblings: about
 * 40 ms a read), and a `resume` or `show` reads one on every start. Sound,
 * not complete: whatever this accepts the schema accepts, with the same
 * output (tests/contract/contract_fast_test.ts holds the two side by side);
 * anything unusual is left to the schema.
 */
export function fastContractJson(v: unknown): ContractJson | null {
  if (!isRecord(v) || !onlyKeys(v, CONTRACT_KEYS)) return null;
  const name = v.name, command = v.command, metric = v.metric, direction = v.direction;
  if (!isName(name, "benchmark") || !isCommand(command) || !isNonEmpty(metric) || !isDirection(direction)) return null;
  if (v.unit !== undefined && !(typeof v.unit === "string" && unitProblem(v.unit) === null)) return null;
  const summary = or(v.summary, DEFAULT_SUMMARY), seedEnv = or(v.seed_env, ""), gpus = or(v.gpus, 0);
  if (!isSummary(summary) || !isSeedEnv(seedEnv) || !isWhole(gpus, 0)) return null;
  const evalMinutes = or(v.eval_minutes, 60),
    evalMem = or(v.eval_mem, DEFAULT_MEM),
    evalCpus = or(v.eval_cpus, DEFAULT_CPUS);
  if (!isWhole(evalMinutes, 1) || typeof evalMem !== "string" || !isMemorySize(evalMem) || !isWhole(evalCpus, 1)) {
    return null;
  }
  const baseline = or(v.baseline, "measure"), minEffect = or(v.min_effect, 0);
  if ((baseline !== "cached" && baseline !== "measure") || !isThreshold(minEffect)) return null;
  const siblings = v.siblings === undefined ? [] : fastSiblings(v.siblings);
  const guards = v.guards === undefined ? [] : fastGuards(v.guards, metric);
  if (siblings === null || guards === null) return null;
  const pairing = or(v.pairing, DEFAULT_PAIRING), repeats = or(v.repeats, DEFAULT_REPEATS), maxRepeats = v.max_repeats;
  const confidence = or(v.confidence, DEFAULT_CONFIDENCE);
  if (pairing !== "separate" && pairing !== "same-job" && pairing !== "duet") return null;
  if (!isWhole(repeats, 1) || (maxRepeats !== undefined && (!isWhole(maxRepeats, 1) || maxRepeats < repeats))) {
    return null;
  }
  if (typeof confidence !== "number" || !(confidence > 0.5 && confidence < 1)) return null;
  // the schema's cross-field rules
  if (pairing !== "separate" && baseline === "cached") return null;
  if (pairing === "duet" && (gpus > 0 || siblings.some((s) => s.gpus > 0))) return null;
  return {
    name,
    command,
    metric,
    direction,
    ...(v.unit === undefined ? {} : { unit: v.unit }),
    summary,
    seed_env: seedEnv,
    gpus,
    eval_minutes: evalMinutes,
    eval_mem: evalMem,
    eval_cpus: evalCpus,
    baseline,
    min_effect: minEffect,
    siblings,
    guards,
    pairing,
    repeats,
    ...(maxRepeats === undefined ? {} : { max_repeats: maxRepeats }),
    confidence,
  };
}

const CONTRACT_KEYS: ReadonlySet<string> = new Set([
  "name",
  "command",
  "metric",
  "direction",
  "unit",
  "summary",
  "seed_env",
  "gpus",
  "eval_minutes",
  "eval_mem",
  "eval_cpus",
  "baseline",
  "min_effect",
  "siblings",
  "guards",
  "pairing",
  "repeats",
  "max_repeats",
  "confidence",
]);
const SIBLING_KEYS: ReadonlySet<string> = new Set([
  "name",
  "command",
  "metric",
  "seed_env",
  "gpus",
  "direction",
  "tolerance",
  "summary",
]);
const GUARD_KEYS: ReadonlySet<string> = new Set(["metric", "direction", "tolerance", "summary"]);

type Sibling = ContractJson["siblings"][number];
type Guard = ContractJson["guards"][number];

/** The siblings, each checked and its defaults filled in, names distinct; null when one is not plainly valid. */
function fastSiblings(v: unknown): Sibling[] | null {
  if (!Array.isArray(v)) return null;
  const out: Sibling[] = [];
  const seen = new Set<string>();
  for (const s of v) {
    if (!isRecord(s) || !onlyKeys(s, SIBLING_KEYS)) return null;
    const name = s.name, command = s.command, metric = s.metric, direction = s.direction;
    if (!isName(name, "sibling") || seen.has(name) || !isCommand(command) || !isNonEmpty(metric)) return null;
    const seedEnv = or(s.seed_env, ""), gpus = or(s.gpus, 0), tolerance = or(s.tolerance, 0);
    const summary = or(s.summary, DEFAULT_SUMMARY);
    if (!isSeedEnv(seedEnv) || !isWhole(gpus, 0) || !isDirection(direction) || !isThreshold(tolerance)) return null;
    if (!isSummary(summary)) return null;
    seen.add(name);
    out.push({ name, command, metric, seed_env: seedEnv, gpus, direction, tolerance, summary });
  }
  return out;
}

/** The guards, each checked, none on the benchmark's own metric and none twice; null when one is not plainly valid. */
function fastGuards(v: unknown, own: string): Guard[] | null {
  if (!Array.isArray(v)) return null;
  const out: Guard[] = [];
  const seen = new Set<string>([own]);
  for (const g of v) {
    if (!isRecord(g) || !onlyKeys(g, GUARD_KEYS)) return null;
    const metric = g.metric,
      direction = g.direction,
      tolerance = or(g.tolerance, 0),
      summary = or(g.summary, DEFAULT_SUMMARY);
    if (!isNonEmpty(metric) || seen.has(metric) || !isDirection(direction) || !isThreshold(tolerance)) return null;
    if (!isSummary(summary)) return null;
    seen.add(metric);
    out.push({ metric, direction, tolerance, summary });
  }
  return out;
}

/** `v`, or `fallback` when absent (a zod default: only `undefined` is absent, never `null`). */
function or<T>(v: unknown, fallback: T): unknown {
  return v === undefined ? fallback : v;
}

/** A plain object (what JSON.parse makes of `{…}`): not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether every own key of `v` is one of `known` (what a strict object refuses otherwise). */
export function onlyKeys(v: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const k in v) if (!known.has(k)) return false;
  return true;
}

/** A whole number ≥ `min` (`wholeNumber` of schema/zod.ts). */
export function isWhole(v: unknown, min: number): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= min;
}

const isText = (v: unknown): v is string => typeof v === "string" && textProblem(v) === null;
const isNonEmpty = (v: unknown): v is string => isText(v) && v.length >= 1;
const isCommand = (v: unknown): v is string => isNonEmpty(v) && v.trim() !== "";
const isSeedEnv = (v: unknown): v is string => isText(v) && seedEnvProblem(v) === null;
const isDirection = (v: unknown): v is "maximize" | "minimize" => v === "maximize" || v === "minimize";
const isSummary = (v: unknown): v is Sibling["summary"] => (SUMMARIES as readonly unknown[]).includes(v);

function isName(v: unknown, kind: "benchmark" | "sibling"): v is string {
  if (typeof v !== "string") return false;
  try {
    validateName(kind, v);
    return true;
  } catch {
    return false;
  }
}
