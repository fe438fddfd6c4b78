import { type IntervalMethod, STUDENT_T } from "./location_interval.ts";
import { ESD_WORDS, HAMPEL_SCREENED_T, SCREENED_T } from "./screened_t.ts";
import { CALIBRATED_WORDS } from "./calibrated_screen.ts";

/**
 * The interval method of every look at two pairs or more (one pair is the
 * single-pair rule whatever the method): the screened Student t
 * (src/stats/screened_t.ts), chosen by scripts/simulate_verdict.ts over
 * Student t, trimmed t, Hodges–Lehmann and the sign-flip interval
 * (bench/verdict_simulation.json, `methods`).
 */
export const REPEATED_METHOD: IntervalMethod = SCREENED_T;

/**
 * The method a decision was made by, from the words its estimate stored
 * (`method`), so a verdict that was right under its own rule is not disputed
 * by a later one: the screened t by the ESD test names it; the calibrated
 * fence names itself and is this method too (`decideLook` reads the fence's
 * scale from the frozen contract's `noise`: src/stats/calibrated_screen.ts);
 * a screened t without either is the Hampel rule's (before issue 22); a
 * repeated design's decision from before the screen (issue 15) says "paired
 * Student t", and is checked by Student t.
 */
export function methodNamed(words: string): IntervalMethod {
  if (!words.includes(REPEATED_METHOD.name)) return STUDENT_T;
  return words.includes(ESD_WORDS) || words.includes(CALIBRATED_WORDS) ? REPEATED_METHOD : HAMPEL_SCREENED_T;
}
