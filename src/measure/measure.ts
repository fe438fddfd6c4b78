// Tested by tests/measure/identity_test.ts
import type { Summary } from "../stats/samples.ts";

/**
 * The unit of measurement: one committed tree measured by one contract
 * command, and the suite-sibling facts that expand into such units.
 *
 * Port of the reference's `Measure` / `SiblingSpec` (measure.py). Both are
 * plain frozen data; every derived value (env, identity, plan) is a pure
 * function of them, so a wake process that rebuilds them from the run record
 * gets byte-identical identities.
 */

/**
 * One eval a climb needs: a COMMITTED tree sha measured by the contract
 * command. `name` keys its result and must be unique within a climb
 * (`baseline`, `candidate`, `sib-tsp-base`).
 */
export interface Measure {
  /** The caller-facing key (`results["candidate"]`) and the slot's readable prefix. */
  readonly name: string;
  /** The full sha of the committed tree to check out and measure. */
  readonly treeSha: string;
  /** The contract command run in the checkout. */
  readonly command: string;
  /** The key of the result JSON object that holds the number. */
  readonly metric: string;
  /**
   * How an array of samples under `metric` becomes the value (default
   * median). Not part of the measure's identity: it reads the same result.
   */
  readonly summary?: Summary;
  /** Extra environment (the paired seed), in order; a later duplicate key wins. */
  readonly extraEnv: readonly (readonly [string, string])[];
  /**
   * The measured BENCHMARK's GPUs — per measure, because a suite gate
   * measures siblings that may need a different lane than the climbed one.
   */
  readonly gpus: number;
}

/**
 * One suite sibling's resolved measurement facts. Each sibling carries its
 * OWN seed variable: a sibling that resamples reads a different env var than
 * the climbed benchmark. Callers set every sibling's `seed` to the one drawn
 * suite seed; the pair (base and cand) always shares it (common random
 * numbers). The per-sibling `seed` exists only so the var, not the value,
 * can differ.
 */
export interface SiblingSpec {
  /** The sibling benchmark's name; its measures are `sib-<name>-base|cand`. */
  readonly name: string;
  readonly command: string;
  readonly metric: string;
  /** How the sibling's samples become its value (default median). */
  readonly summary?: Summary;
  /** The env var the sibling reads its seed from; "" = it does not resample. */
  readonly seedEnv: string;
  /** The drawn seed; 0 is the "no seed recorded" sentinel and injects nothing. */
  readonly seed: number;
  readonly gpus: number;
}

/**
 * The measure's environment as a dict, built like Python's `dict(extra_env)`:
 * a later duplicate key overwrites an earlier one. The object has no
 * prototype, so a key such as `__proto__` is an ordinary entry.
 */
export function measureEnv(m: Measure): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  for (const [key, value] of m.extraEnv) env[key] = value;
  return env;
}

/**
 * The one-entry seed env `[[seedEnv, String(seed)]]`, or none at all.
 *
 * Injects only a REAL drawn seed: 0 is the ledger's "no seed recorded"
 * sentinel (drawn seeds are 1+), so an unset seed injects no var rather than
 * a literal "0" that would read as a real seed. An empty `seedEnv` means the
 * benchmark does not resample. Refuses a seed that is not a safe integer,
 * whose decimal text would differ from Python's `str(int)`.
 */
export function seedEnvEntries(seedEnv: string, seed: number): readonly (readonly [string, string])[] {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`Seed must be an integer, got ${String(seed)}`);
  }
  return seedEnv && seed ? [[seedEnv, String(seed)]] : [];
}

/** The sibling's seed env: its OWN variable set to its seed, or nothing (see `seedEnvEntries`). */
export function siblingEnv(s: SiblingSpec): readonly (readonly [string, string])[] {
  return seedEnvEntries(s.seedEnv, s.seed);
}
