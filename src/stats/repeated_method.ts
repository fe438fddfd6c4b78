import type { IntervalMethod } from "./location_interval.ts";
import { SCREENED_T } from "./screened_t.ts";

/**
 * The interval method of every look at two pairs or more (one pair is the
 * single-pair rule whatever the method): the screened Student t
 * (src/stats/screened_t.ts), chosen by scripts/simulate_verdict.ts over
 * Student t, trimmed t, Hodges–Lehmann and the sign-flip interval
 * (bench/verdict_simulation.json, `methods`).
 */
export const REPEATED_METHOD: IntervalMethod = SCREENED_T;
