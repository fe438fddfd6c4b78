import type { LiveJob } from "../compute/compute.ts";
import { GONE, isTerminal } from "../compute/states.ts";

/**
 * What one pass saw of a measure: its files, the one queue listing, and the
 * one batched sacct. `DispatchedMeasurer.observe` gathers these for every
 * measure of a pass; `classifyMeasure` turns each into the measure's state.
 * `resume` acts on that state and `show` prints it, so the two can never
 * disagree about a measure.
 */
export interface Observation {
  /** The job wrote its exit code — checked before the listing and again after every answer. */
  readonly done: boolean;
  /** The job id recorded at dispatch (`submitted`), or "" when it was never submitted. */
  readonly marker: string;
  /**
   * The live job with the measure's name in the pass's one listing: a job,
   * `null` when the listing succeeded without it, or "unknown" when the listing failed.
   */
  readonly listed: LiveJob | null | "unknown";
  /**
   * What sacct said of the marker's job, asked only for a dispatched measure
   * the listing did not show: a state, GONE (no record), or "unknown" when
   * sacct failed or was not asked.
   */
  readonly accounted: string;
  /**
   * Why an "unknown" listing or accounting is not an answer, as `show` words
   * it: SCHEDULER_UNREACHABLE when the scheduler could not be asked (the default).
   */
  readonly unknownWhy?: string;
}

/** The `why` of an unknown state when the scheduler itself did not answer. */
export const SCHEDULER_UNREACHABLE = "scheduler unreachable";

/** Where a measure stands; the measurer's actions and `show`'s words both follow from it. */
export type MeasureState =
  /** Its job wrote an exit code: read the result (which may still be a failure). */
  | { readonly kind: "done"; readonly jobId: string | null }
  /** Queued or running, found by name: park on this job. */
  | { readonly kind: "live"; readonly job: LiveJob }
  /**
   * Dispatched, missing from the listing, but sacct says it is not over (an
   * empty or lagging listing): park on it, never declare it dead.
   */
  | { readonly kind: "unlisted"; readonly jobId: string; readonly state: string }
  /** Dispatched, not live, not running per sacct, no result: it died. Never resubmitted. */
  | { readonly kind: "vanished"; readonly jobId: string; readonly endState: string }
  /** No marker and not live: never dispatched (or a submitter died before sbatch): dispatch it. */
  | { readonly kind: "undispatched" }
  /**
   * No answer yet — the scheduler could not be asked, the job was submitted
   * moments ago, or its array is queued but the task is not listed: park on
   * the marker when there is one, else blind.
   */
  | { readonly kind: "unknown"; readonly jobId: string | null; readonly why: string };

/**
 * The state of one measure, as a pure function of what the pass saw. The
 * order is the fail-safe one: a result on disk wins; a failed listing is
 * "unknown", never "gone"; a job found by name is live whatever the marker
 * says; a dispatched job the listing misses is dead only when sacct, asked
 * successfully, does not report it pending or running.
 */
export function classifyMeasure(o: Observation): MeasureState {
  if (o.done) return { kind: "done", jobId: o.marker || null };
  const why = o.unknownWhy ?? SCHEDULER_UNREACHABLE;
  if (o.listed === "unknown") return { kind: "unknown", jobId: o.marker || null, why };
  if (o.listed !== null) return { kind: "live", job: o.listed };
  if (!o.marker) return { kind: "undispatched" };
  if (o.accounted === "unknown") return { kind: "unknown", jobId: o.marker, why };
  if (o.accounted !== GONE && o.accounted !== "" && !isTerminal(o.accounted)) {
    return { kind: "unlisted", jobId: o.marker, state: o.accounted };
  }
  return { kind: "vanished", jobId: o.marker, endState: o.accounted === GONE ? "" : o.accounted };
}
