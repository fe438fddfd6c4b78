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
export { type Measure } from "./measure.ts";
export { measureName, type MeasureRef, parseMeasureName } from "./measure_name.ts";
export { jobName, slot } from "./identity.ts";
export { planPairs } from "./plan.ts";
export { type DispatchUnit, dispatchUnits } from "./dispatch_unit.ts";
export { DispatchedMeasurer } from "./measurer.ts";
export type { FailureKind, LookOptions, LookResults, MeasureFailure } from "./look_results.ts";
export { MeasurementPending } from "./pending.ts";
