/**
 * The unit of measurement: a measure (a committed tree measured by a
 * command), its name (`measure_name.ts`, the one module that builds and reads
 * them), its identity (slot, job name — byte-compatible with the reference),
 * the plan of a run's pairs, the dispatch units a pairing makes of them, the
 * measure-state classifier and the measurer that dispatches, parks and reads
 * them, lanes, and the baseline cache.
 *
 * @module
 */
