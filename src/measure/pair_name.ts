/**
 * The measure name of `name` in pair `pair`: the name itself for pair 1 (so
 * a one-pair run is named as it always was, byte for byte the reference's),
 * `<name>#<pair>` after it — `baseline#2`, `sib-lat-cand#3`. Readable, and
 * never ambiguous: a pair-1 name ends in `baseline`, `candidate`, `-base` or
 * `-cand`, a later pair's in `#<digits>`, and removing that suffix gives back
 * the pair-1 name. The name is part of a measure's determinant, so every
 * pair gets its own slot and job name even when the benchmark has no seed.
 */
export function pairMeasureName(name: string, pair: number): string {
  return pair === 1 ? name : `${name}#${pair}`;
}

/** The pair-1 name and the pair of a measure name: `baseline#3` → `{ name: "baseline", pair: 3 }`. */
export function splitPairName(measure: string): { readonly name: string; readonly pair: number } {
  const m = /^(.*)#([1-9][0-9]*)$/s.exec(measure);
  return m ? { name: m[1]!, pair: Number(m[2]) } : { name: measure, pair: 1 };
}
