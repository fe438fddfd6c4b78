/**
 * The sequential design: when to look at the pairs and at which confidence
 * level. Looking after every batch and stopping at the first interval that
 * clears min_effect inflates false accepts (each look is another chance for
 * noise to win), so the error budget α = 1 − confidence is split over the
 * planned looks: look k gets its own two-sided level 1 − α_k with Σ α_k = α,
 * and by the union bound every interval of the climb covers the true mean
 * at once with probability ≥ confidence, however the looks turn out. An
 * accept needs a lower bound above min_effect, so a false accept needs a
 * miss on one side of one interval: at most α/2 over the whole climb.
 *
 * The split follows a power spending function α·t^ρ over the information
 * fraction t = n / max_repeats (Kim & DeMets, 1987; any split summing to α
 * is valid): ρ = 1 spends α in proportion to the pairs each batch adds
 * (equal batches: an equal split), a larger ρ keeps more for the last look,
 * a smaller one spends more early. The simulation (scripts/simulate_verdict.ts,
 * bench/verdict_simulation.json) found ρ = 1 the cheapest in pairs per real
 * improvement found among the variants that keep 90% power at every noise
 * shape: ρ = 2 accepts later (more pairs when there is an effect), ρ = 0.5 loses
 * power at the last look.
 */

/** The exponent ρ of the spending function α·(n/max_repeats)^ρ: 1, α in proportion to the pairs. */
export const SPENDING_POWER = 1;

/** One planned look at the pairs. */
export interface Look {
  /** 1-based position among the looks. */
  readonly index: number;
  /** The pairs in hand at this look. */
  readonly n: number;
  /**
   * The two-sided confidence level of this look's intervals; null for a
   * look at one pair in a sequential design, which has no variance estimate
   * and so may only continue.
   */
  readonly level: number | null;
}

/** The looks of a contract's design, computed once from (repeats, max_repeats, confidence). */
export interface Design {
  readonly repeats: number;
  readonly maxRepeats: number;
  readonly confidence: number;
  /** More than one planned look. */
  readonly sequential: boolean;
  readonly looks: readonly Look[];
}

/**
 * The pair counts at which the verdict is looked at: repeats, 2·repeats, …,
 * capped at max_repeats (the last batch may be smaller): (4, 12) → 4, 8, 12;
 * (5, 12) → 5, 10, 12; (3, 3) → 3.
 */
export function lookSchedule(repeats: number, maxRepeats: number): number[] {
  if (!(Number.isInteger(repeats) && repeats >= 1 && Number.isInteger(maxRepeats) && maxRepeats >= repeats)) {
    throw new RangeError(
      `lookSchedule() needs whole numbers 1 <= repeats <= maxRepeats, got ${repeats}, ${maxRepeats}`,
    );
  }
  const looks: number[] = [];
  for (let n = repeats; n < maxRepeats; n += repeats) looks.push(n);
  looks.push(maxRepeats);
  return looks;
}

/**
 * The design: every look with its level. A single look (repeats =
 * max_repeats) uses the whole α, so `repeats: 1` is today's single pair and
 * `repeats: 5` a plain 95% interval over 5 pairs. With several looks, look k
 * gets α_k = α·((n_k/N)^ρ − (n_{k−1}/N)^ρ); a look at one pair gets no α
 * (it cannot decide) and its share rolls into the next look.
 */
export function sequentialDesign(
  repeats: number,
  maxRepeats: number,
  confidence: number,
  spendingPower: number = SPENDING_POWER,
): Design {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`sequentialDesign() needs 0 < confidence < 1`);
  if (!(spendingPower > 0)) throw new RangeError(`sequentialDesign() needs a spending power > 0`);
  const schedule = lookSchedule(repeats, maxRepeats);
  const sequential = schedule.length > 1;
  const alpha = 1 - confidence;
  let spent = 0;
  const looks = schedule.map((n, i): Look => {
    if (!sequential) return { index: 1, n, level: confidence };
    if (n === 1) return { index: i + 1, n, level: null };
    const cumulative = alpha * (n / maxRepeats) ** spendingPower;
    const level = 1 - (cumulative - spent);
    spent = cumulative;
    return { index: i + 1, n, level };
  });
  return { repeats, maxRepeats, confidence, sequential, looks };
}

/** The contract keys a design is made of. */
export interface DesignKeys {
  readonly repeats: number;
  readonly maxRepeats: number;
  readonly confidence: number;
}

/** The design of a contract's keys: the one way every caller builds it. */
export function designOf(keys: DesignKeys, spendingPower: number = SPENDING_POWER): Design {
  return sequentialDesign(keys.repeats, keys.maxRepeats, keys.confidence, spendingPower);
}

/** The look at `n` pairs; a `RangeError` when n is not on the schedule (the caller measured a partial batch). */
export function lookAt(design: Design, n: number): Look {
  const look = design.looks.find((l) => l.n === n);
  if (look === undefined) {
    const at = design.looks.map((l) => l.n).join(", ");
    throw new RangeError(`Cannot decide at ${n} pairs: this design looks at ${at} pairs`);
  }
  return look;
}

/** The last look: the most pairs, where the futility rule asks whether an accept is still within reach. */
export function finalLook(design: Design): Look {
  return design.looks[design.looks.length - 1]!;
}

/**
 * How many pairs the next batch adds after a look at `n` pairs: repeats,
 * or what is left below max_repeats; 0 at the last look.
 */
export function nextBatch(design: Design, n: number): number {
  return Math.max(0, Math.min(design.repeats, design.maxRepeats - n));
}
