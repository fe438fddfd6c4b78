import { BASE_ARM, CANDIDATE_ARM, measureName } from "../measure/measure_name.ts";

/**
 * The pairs a screened estimate set aside as outlying (src/stats/screened_t.ts,
 * src/stats/calibrated_screen.ts) and why (src/verdict/set_aside_reason.ts), in
 * the words every surface uses: `show`, `runs`, the Markdown and the HTML
 * report; `--json` gives the same reason as `set_aside_why`.
 */

/**
 * The clause every surface puts where the pairs set aside are named: `pair
 * 8 set aside, outlying by the generalized ESD test`; `why` alone says
 * `outlying` (a surface that was not given the method).
 */
export function setAsideClause(pairs: readonly number[], why: string = "outlying"): string {
  return `${pairList(pairs)} set aside, ${why}`;
}

/** `pair 8`, `pairs 3 and 8`, `pairs 2, 3 and 8` (sorted). */
export function pairList(pairs: readonly number[]): string {
  const s = [...pairs].sort((a, b) => a - b);
  if (s.length === 1) return `pair ${s[0]}`;
  return `pairs ${s.slice(0, -1).join(", ")} and ${s.at(-1)}`;
}

/**
 * The clause with the pairs' measures after it: `pair 8 set aside, outlying
 * by the generalized ESD test (baseline#8, candidate#8)`, `pairs 1 and 8 …
 * (baseline, candidate; baseline#8, candidate#8)`; with `sibling`, that
 * sibling's measures (`sib-lat-base#3, sib-lat-cand#3`). "" when none.
 */
export function setAsideWords(pairs: readonly number[], why: string, sibling: string | null = null): string {
  if (pairs.length === 0) return "";
  const measures = [...pairs].sort((a, b) => a - b).map((pair) =>
    `${measureName({ sibling, arm: BASE_ARM, pair })}, ${measureName({ sibling, arm: CANDIDATE_ARM, pair })}`
  );
  return `${setAsideClause(pairs, why)} (${measures.join("; ")})`;
}

/** A mean row's label: `mean of 10 pairs`, or `mean of 9 of 10 pairs; pair 8 set aside`. */
export function meanOfPairs(n: number, setAside: readonly number[]): string {
  if (setAside.length === 0) return `mean of ${n} pairs`;
  return `mean of ${n - setAside.length} of ${n} pairs; ${pairList(setAside)} set aside`;
}
