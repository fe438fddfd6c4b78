/**
 * What one look concludes from the intervals: the verdict, and whether to
 * measure another batch. Kept apart from the sentences (src/verdict/reasons.ts)
 * so the rule can be read, tested and simulated on its own.
 *
 * On the benchmark's interval [L, U] of the mean improvement: accept when
 * L > min_effect, reject when U ≤ 0, else inconclusive. On a sibling's:
 * regressed when U < −tolerance, held when L ≥ −tolerance, else unsure (it
 * may have regressed, so it blocks an accept). With one pair [L, U] is the
 * point [Δ, Δ] and these are exactly the single-pair rules: accept Δ >
 * min_effect, reject Δ ≤ 0, a sibling regressed when Δ < −tolerance.
 */

/** The three outcomes of a climb. */
export type Verdict = "accept" | "reject" | "inconclusive";

/** An interval's ends; what the calls below read. */
export interface Bounds {
  readonly lower: number;
  readonly upper: number;
}

/** The benchmark's call on its own: accept (L > min_effect), reject (U ≤ 0) or inconclusive. */
export function benchmarkCall(b: Bounds, minEffect: number): Verdict {
  if (b.lower > minEffect) return "accept";
  if (b.upper <= 0) return "reject";
  return "inconclusive";
}

/** A sibling's standing: regressed (U < −tolerance), held (L ≥ −tolerance), or unsure in between. */
export type SiblingCall = "held" | "regressed" | "unsure";

/** A sibling's call on its interval of improvement (non-inferiority within `tolerance`). */
export function siblingCall(b: Bounds, tolerance: number): SiblingCall {
  if (b.upper < -tolerance) return "regressed";
  if (b.lower >= -tolerance) return "held";
  return "unsure";
}

/**
 * Why a look ended as it did; `decide` words each kind.
 * - `first-pair`: one pair in a sequential design: no variance estimate, so continue.
 * - `sibling-regressed`: a sibling regressed: reject, whatever the benchmark says.
 * - `accepted` / `no-improvement`: the benchmark's accept or reject.
 * - `sibling-unsure`: the benchmark accepts but a sibling may have regressed.
 * - `undecided`: the benchmark's interval straddles (0, min_effect].
 * - `futile`: undecided, and an accept is out of reasonable reach: stop, and
 *   read the estimate as the single-pair rule reads Δ, short of an accept:
 *   reject when the mean improvement is ≤ 0, else inconclusive.
 */
export type LookKind =
  | "first-pair"
  | "sibling-regressed"
  | "accepted"
  | "no-improvement"
  | "sibling-unsure"
  | "undecided"
  | "futile";

/** The outcome of a look. */
export interface LookOutcome {
  readonly kind: LookKind;
  /** The verdict; while `next` > 0 it is provisional and always inconclusive. */
  readonly verdict: Verdict;
  /** Pairs to measure in the next batch; 0 when this look is final. */
  readonly next: number;
}

/** What `judgeLook` needs to know about the look. */
export interface LookFacts {
  /** No variance estimate and more looks to come: the look may only continue. */
  readonly firstPairOnly: boolean;
  /** Pairs the next batch would add; 0 at the last look. */
  readonly batch: number;
  readonly benchmark: Verdict;
  /** The benchmark's mean improvement (the estimate); what a futility stop reads. */
  readonly mean: number;
  readonly siblings: readonly SiblingCall[];
  /** Whether an accept is out of reasonable reach; asked only when it matters. */
  readonly futile: () => boolean;
}

/**
 * The look's outcome, in this order (the order of today's single-pair rule,
 * which it reduces to):
 * 1. a first-pair-only look continues;
 * 2. a regressed sibling rejects, even when the benchmark would accept;
 * 3. a benchmark accept accepts when every sibling held; with a sibling
 *    unsure it continues while pairs remain, else ends inconclusive;
 * 4. a benchmark reject rejects;
 * 5. undecided: inconclusive at the last look; else, when futile, stop with
 *    the single-pair rule's verdict on the estimate short of an accept
 *    (`futilityVerdict`); else continue.
 */
export function judgeLook(f: LookFacts): LookOutcome {
  const more = (kind: LookKind): LookOutcome => ({ kind, verdict: "inconclusive", next: f.batch });
  const final = (kind: LookKind, verdict: Verdict): LookOutcome => ({ kind, verdict, next: 0 });
  if (f.firstPairOnly) return more("first-pair");
  if (f.siblings.includes("regressed")) return final("sibling-regressed", "reject");
  if (f.benchmark === "accept") {
    if (f.siblings.every((s) => s === "held")) return final("accepted", "accept");
    return f.batch > 0 ? more("sibling-unsure") : final("sibling-unsure", "inconclusive");
  }
  if (f.benchmark === "reject") return final("no-improvement", "reject");
  if (f.batch === 0) return final("undecided", "inconclusive");
  if (f.futile()) return final("futile", futilityVerdict(f.mean));
  return more("undecided");
}

/**
 * What a futility stop concludes from the mean improvement: reject when it
 * shows no improvement (mean ≤ 0, the single-pair rule's Δ ≤ 0), else
 * inconclusive — never accept, even above min_effect, since the interval did
 * not clear it. The guarantee of the α split bounds false accepts only, and
 * this adds none: it turns some inconclusive verdicts into rejects.
 */
export function futilityVerdict(mean: number): Verdict {
  return mean <= 0 ? "reject" : "inconclusive";
}
