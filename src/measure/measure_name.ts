/**
 * Measure names, built and read in this one module: every other file asks
 * here what a measure is called and what a name says.
 *
 * A measure is one benchmark (the climbed one, or a suite sibling by name) on
 * one arm (0 the base; k ≥ 1 candidate k, 1 for a run of one candidate) in one
 * pair (1-based):
 *
 * | what                    | pair 1            | pair i ≥ 2          |
 * | ----------------------- | ----------------- | ------------------- |
 * | benchmark, base         | `baseline`        | `baseline#i`        |
 * | benchmark, candidate    | `candidate`       | `candidate#i`       |
 * | benchmark, candidate k  | `candidate-k`     | `candidate-k#i`     |
 * | sibling s, base         | `sib-s-base`      | `sib-s-base#i`      |
 * | sibling s, candidate    | `sib-s-cand`      | `sib-s-cand#i`      |
 * | sibling s, candidate k  | `sib-s-cand-k`    | `sib-s-cand-k#i`    |
 * | guard g, base (a value) | `guard-g-base`    | `guard-g-base#i`    |
 * | guard g, candidate (k)  | `guard-g-cand(-k)`| `guard-g-cand(-k)#i`|
 *
 * Pair 1 of a one-candidate run is named exactly as the reference names its
 * measures, byte for byte. A name is never ambiguous: the pair suffix is the
 * last `#<digits>`, and what is left ends in one of the arm words above, which
 * no sibling name can stand in for. The name is part of a measure's
 * determinant, so every pair and arm gets its own slot and job name even when
 * the benchmark has no seed.
 *
 * A guard's names are not measures (no job runs them): they key the values
 * of a guard metric the benchmark's own measure of that arm and pair read
 * (`guardName`), and `parseMeasureName` does not take them.
 *
 * The differences of `decision.json` (`deltas`, candidate − baseline) are keyed
 * by the candidate side's name, except a sibling's single candidate, which the
 * reference keys `sib-<name>` (see `differenceName`).
 */

/** What a measure name stands for. */
export interface MeasureRef {
  /** The sibling's name, or null for the climbed benchmark. */
  readonly sibling: string | null;
  /** 0 the base; k ≥ 1 candidate k. */
  readonly arm: number;
  /** 1-based. */
  readonly pair: number;
}

/** The base arm. */
export const BASE_ARM = 0;
/** The candidate of a one-candidate run. */
export const CANDIDATE_ARM = 1;

/** The name of `name` in pair `pair`: the name itself for pair 1, `<name>#<pair>` after. */
export function pairMeasureName(name: string, pair: number): string {
  return pair === 1 ? name : `${name}#${pair}`;
}

/** The pair-1 name and the pair of a measure name: `baseline#3` → `{ name: "baseline", pair: 3 }`. */
export function splitPairName(measure: string): { readonly name: string; readonly pair: number } {
  const m = /^(.*)#([1-9][0-9]*)$/s.exec(measure);
  return m ? { name: m[1]!, pair: Number(m[2]) } : { name: measure, pair: 1 };
}

function armWord(sibling: boolean, arm: number): string {
  if (!(Number.isInteger(arm) && arm >= 0)) throw new RangeError(`A measure's arm is a whole number, got ${arm}`);
  if (arm === BASE_ARM) return sibling ? "base" : "baseline";
  if (arm === CANDIDATE_ARM) return sibling ? "cand" : "candidate";
  return `${sibling ? "cand" : "candidate"}-${arm}`;
}

/** The measure's name (see the table above). */
export function measureName(ref: MeasureRef): string {
  const stem = ref.sibling === null ? armWord(false, ref.arm) : `sib-${ref.sibling}-${armWord(true, ref.arm)}`;
  return pairMeasureName(stem, ref.pair);
}

/** The benchmark's base or candidate measure name in `pair` (pair 1 by default). */
export function benchmarkName(arm: number, pair = 1): string {
  return measureName({ sibling: null, arm, pair });
}

/** A sibling's base or candidate measure name in `pair`. */
export function siblingName(sibling: string, arm: number, pair = 1): string {
  return measureName({ sibling, arm, pair });
}

/** What `name` stands for, or null for a name this module does not make. */
export function parseMeasureName(name: string): MeasureRef | null {
  const { name: stem, pair } = splitPairName(name);
  const arm = (word: string, base: string, cand: string): number | null => {
    if (word === base) return BASE_ARM;
    if (word === cand) return CANDIDATE_ARM;
    const k = new RegExp(`^${cand}-([2-9]|[1-9][0-9]+)$`).exec(word);
    return k ? Number(k[1]) : null;
  };
  const sib = /^sib-(.+)-(base|cand(?:-[0-9]+)?)$/s.exec(stem);
  if (sib) {
    const a = arm(sib[2]!, "base", "cand");
    return a === null ? null : { sibling: sib[1]!, arm: a, pair };
  }
  const a = arm(stem, "baseline", "candidate");
  return a === null ? null : { sibling: null, arm: a, pair };
}

/**
 * The key of a difference (candidate − baseline) in `decision.json`'s
 * `deltas`: the candidate side's measure name (`candidate`, `candidate#2`,
 * `sib-s-cand-2`), but `sib-<name>` for a sibling's single candidate, as the
 * reference keys it.
 */
export function differenceName(sibling: string | null, arm: number, pair = 1): string {
  if (sibling !== null && arm === CANDIDATE_ARM) return pairMeasureName(`sib-${sibling}`, pair);
  return measureName({ sibling, arm, pair });
}

/**
 * A guard's measure name: the value of `metric` read from the benchmark's
 * own result on arm `arm` in `pair` — `guard-<metric>-base`,
 * `guard-<metric>-cand`, `guard-<metric>-cand-k`, with `#i` for pair i ≥ 2.
 * It never names a measure of its own (no job runs it: the benchmark's
 * measure of the same arm and pair read it), only a series of the decision's
 * values. The `guard-` stem cannot collide with the benchmark's names
 * (`baseline`, `candidate…`) nor with a sibling's (`sib-…`), whatever the
 * metric is called.
 */
export function guardName(metric: string, arm: number, pair = 1): string {
  return pairMeasureName(`guard-${metric}-${armWord(true, arm)}`, pair);
}

/** What a guard's name stands for (`guardName`'s inverse), or null for any other name. */
export function parseGuardName(
  name: string,
): { readonly metric: string; readonly arm: number; readonly pair: number } | null {
  const { name: stem, pair } = splitPairName(name);
  const m = /^guard-(.+)-(base|cand|cand-(?:[2-9]|[1-9][0-9]+))$/s.exec(stem);
  if (!m) return null;
  const word = m[2]!;
  const arm = word === "base" ? BASE_ARM : word === "cand" ? CANDIDATE_ARM : Number(word.slice(5));
  return { metric: m[1]!, arm, pair };
}
