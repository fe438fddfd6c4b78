// Tested by tests/stats/relative_test.ts
import { type PairedInterval, pairedInterval } from "./paired.ts";

/**
 * What every interval method of the verdict gives and how it is called, so
 * that the rule (src/stats/look_rule.ts), the futility stop
 * (src/stats/futility.ts) and the sentences read one shape whichever method
 * made it: today's Student t (`STUDENT_T`, below) or the trimmed t that
 * repeated designs use by default (src/stats/screened_t.ts).
 */

/**
 * An interval of the improvements' location, with what the futility pivot
 * and the decision file need. `n` counts every pair measured; `mean` and `sd`
 * are those of the pairs the estimate rests on (all of them, but for those
 * in `setAside`).
 */
export interface LocationInterval extends PairedInterval {
  /** The degrees of freedom of the t the interval is read from; null for one pair. */
  readonly df: number | null;
  /**
   * The pairs the estimate set aside (0-based, in the order of their
   * improvements: lowest first); none for Student t.
   */
  readonly setAside: readonly number[];
}

/** One way to get an interval from the improvements. */
export interface IntervalMethod {
  /** Its name in the reasons and in decision.json's estimates: `Student t`, `screened Student t`. */
  readonly name: string;
  /** What else the reasons say of it, in parentheses after the name (how pairs are screened). */
  readonly detail?: string;
  /** The two-sided `level` interval of the improvements (at least one, all finite). */
  interval(improvements: readonly number[], level: number): LocationInterval;
  /** The degrees of freedom of the interval at `n` pairs (n ≥ 2): what the futility rule needs of the last look. */
  df(n: number): number;
  /**
   * The intervals the futility rule predicts from (it stops only when every
   * one is futile); without it, the look's interval alone.
   */
  futilityBases?(improvements: readonly number[], level: number): readonly LocationInterval[];
}

/** Today's interval: the Student t interval of the mean (`pairedInterval`), exact for normal improvements. */
export const STUDENT_T: IntervalMethod = {
  name: "Student t",
  interval(improvements, level) {
    const iv = pairedInterval(improvements, level);
    return { ...iv, df: iv.n === 1 ? null : iv.n - 1, setAside: [] };
  },
  df: (n) => n - 1,
};
