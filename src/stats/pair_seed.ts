import { hexDigest } from "../runtime/digest.ts";

/**
 * The seed of each pair. Pair 1 keeps the run's seed, so a run with one pair
 * measures exactly what it measures today. Every further pair needs a seed of
 * its own — repeating the seed would repeat the seed-dependent part of the
 * measurement and count one sample n times (pseudo-replication) — and the
 * seed must be derived, not drawn, because a wake process in another job
 * must rebuild the identical plan from run.json alone.
 */

/** The largest seed: benchmarks read the seed as a signed 32-bit integer, and 0 means "no seed". */
const MAX_SEED = 2 ** 31 - 1;

/** A seed in [1, 2^31 − 1] from sha256("outerloop pair seed\0<run seed>\0<pair>\0<attempt>"). */
function derive(runSeed: number, pair: number, attempt: number): number {
  // the digest's first 4 bytes, big-endian
  const first = parseInt(hexDigest("sha256", `outerloop pair seed\0${runSeed}\0${pair}\0${attempt}`).slice(0, 8), 16);
  return (first % MAX_SEED) + 1;
}

/**
 * The seed of pair `pair` (1-based) of a run whose seed is `runSeed`:
 *
 * - pair 1: `runSeed` itself;
 * - pair i ≥ 2: a value in [1, 2^31 − 1] derived from sha256 of (runSeed, i),
 *   distinct from the seeds of pairs 1 … i − 1 (on the rare collision the
 *   hash is taken again with an attempt counter, so the answer stays a pure
 *   function of (runSeed, i));
 * - runSeed 0 (the run has no seed; the benchmark does not resample): 0 for
 *   every pair.
 *
 * Throws a `RangeError` for a seed outside [0, 2^31 − 1] or a pair below 1.
 */
export function pairSeed(runSeed: number, pair: number): number {
  if (!(Number.isInteger(pair) && pair >= 1)) throw new RangeError(`pairSeed() needs a pair >= 1, got ${pair}`);
  return pairSeeds(runSeed, pair)[pair - 1]!;
}

/**
 * The seeds of pairs 1 … `pairs` (each `pairSeed(runSeed, i)`), in one walk:
 * pair i's seed depends on every earlier one, so asking `pairSeed` for each
 * pair in turn would hash i·(i − 1)/2 times where this hashes i − 1.
 */
export function pairSeeds(runSeed: number, pairs: number): number[] {
  if (!(Number.isInteger(runSeed) && runSeed >= 0 && runSeed <= MAX_SEED)) {
    throw new RangeError(`pairSeed() needs a run seed in [0, ${MAX_SEED}], got ${runSeed}`);
  }
  if (runSeed === 0) return Array.from({ length: pairs }, () => 0);
  const seeds = pairs >= 1 ? [runSeed] : [];
  const taken = new Set<number>(seeds);
  for (let i = 2; i <= pairs; i++) {
    let attempt = 0;
    let seed: number;
    do seed = derive(runSeed, i, attempt++); while (taken.has(seed));
    taken.add(seed);
    seeds.push(seed);
  }
  return seeds;
}
