import { DEFAULT_ALLOWED_ENV } from "../dispatch/eval_script.ts";
import { unsafeSeedEnv } from "./unsafe_env.ts";
import type { Pairing } from "./contract.ts";

/**
 * The checks of a contract's fields that are not zod's own (no NUL, no lone
 * surrogate, the seed variable's rules, a threshold's two forms), as plain
 * functions: the zod schema (contract.ts) words its refusals with them, and
 * the fast path (contract_fast.ts) accepts with the very same tests; and
 * the defaults both fill in.
 */

/** Paired repeats default to one pair: exactly the single-pair verdict of a contract that does not ask for more. */
export const DEFAULT_REPEATS = 1;
/** Each measure its own job, as the reference dispatches: a run record without `pairing` is this. */
export const DEFAULT_PAIRING: Pairing = "separate";
/** The default confidence of the verdict's intervals. */
export const DEFAULT_CONFIDENCE = 0.95;

/**
 * Why a string of the contract cannot be used, or null: a NUL, which no
 * argv, environment or shell variable can carry (the job would silently run
 * a shortened command, and the identity, whose fields NUL separates, could
 * collide), or a lone surrogate (JSON `"\ud800"`), which has no UTF-8
 * encoding: no file, job script or identity hash could hold it as written.
 */
export function textProblem(value: string): string | null {
  return value.includes("\u0000")
    ? "contains a NUL character (\\u0000), which no command line or environment can carry"
    : !value.isWellFormed()
    ? "contains a lone surrogate (such as \\ud800), which has no UTF-8 encoding"
    : null;
}

/**
 * Variables the eval job sets in the command's environment itself: a seed
 * variable of the same name would be overwritten or would overwrite them.
 * `OUTERLOOP_RESULT` names the result file, `OUTERLOOP_JOB_ID` the job the command
 * runs in (one for both measures of a pair job); `OUTERLOOP_PAIR` is kept for the
 * pair number of paired repeats; the rest are passed on from the job's own
 * environment (`DEFAULT_ALLOWED_ENV`).
 */
const RESERVED_ENV: ReadonlySet<string> = new Set([
  "OUTERLOOP_RESULT",
  "OUTERLOOP_JOB_ID",
  "OUTERLOOP_PAIR",
  ...DEFAULT_ALLOWED_ENV,
]);

/**
 * Why `seed_env` cannot be used, or null: "" (the benchmark does not
 * resample) or a shell identifier the job does not set itself, and that no
 * loader, shell or interpreter reads (unsafe_env.ts). A NUL or a lone
 * surrogate is left to `textProblem`.
 */
export function seedEnvProblem(name: string): string | null {
  return name === "" || !name.isWellFormed() || name.includes("\u0000")
    ? null // none, or refused by text() already
    : !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ? `expected a variable name (letters, digits and "_", not starting with a digit), got ${JSON.stringify(name)}`
    : name.startsWith("OUTERLOOP_") && RESERVED_ENV.has(name)
    ? `${JSON.stringify(name)} is set by the eval job itself; name the seed variable otherwise (such as BENCH_SEED)`
    : RESERVED_ENV.has(name)
    ? `${JSON.stringify(name)} is passed to the eval job from its environment, and the seed would replace it; ` +
      "name the seed variable otherwise (such as BENCH_SEED)"
    : unsafeSeedEnv(name);
}

/** A relative threshold as written: a percentage such as "2%" or "0.5%". */
/** A relative threshold as written: `2%`, `0.5%`. */
export const PERCENT = /^(0|[1-9][0-9]*)(\.[0-9]+)?%$/;

/** A threshold as the contract may write it: a number >= 0 in the metric's units, or a percentage. */
export function isThreshold(v: unknown): v is number | string {
  return (typeof v === "number" && Number.isFinite(v) && v >= 0) || (typeof v === "string" && PERCENT.test(v));
}

/** The longest `unit` a contract may give: a unit, not a sentence. */
const MAX_UNIT_LENGTH = 16;

/**
 * What is wrong with a metric's `unit` (`"s"`, `"ms"`, `"bpb"`, `"MB"`), or
 * null: it is printed beside every value, so it is short and on one line.
 */
export function unitProblem(unit: string): string | null {
  if (unit.trim() === "") return 'expected a unit such as "s", "ms", "bpb" or "MB"';
  if (unit.length > MAX_UNIT_LENGTH) return `expected a unit of at most ${MAX_UNIT_LENGTH} characters`;
  // deno-lint-ignore no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(unit) || unit.trim() !== unit) {
    return "expected a unit without control characters or spaces at its ends";
  }
  return textProblem(unit);
}
