/**
 * What a run measures, derived from its record in one place: the design and
 * each look's plan (`run_plan.ts`), the baseline the cache gives it, the
 * measurer built for it, every job name it can have, and what its jobs used.
 *
 * @module
 */
