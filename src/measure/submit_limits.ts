import type { Compute } from "../compute/compute.ts";
import { SubmitLimitError } from "../compute/errors.ts";
import type { JobSpec } from "../compute/job_spec.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";

/**
 * A site's limit on submitted jobs (`MaxSubmitJobs`, a QOS's): a submission
 * it refuses is sized down to the room left (one kept for the wake) and the
 * rest left for a later pass (`waiting`); the run parks, it does not fail.
 */
export interface Sent {
  /** The job (or `A_T`) each unit got. */
  readonly jobs: ReadonlyMap<DispatchUnit, string>;
  /** The units that wait for room, in order. */
  readonly waiting: readonly DispatchUnit[];
  /** The limit that left no room ("" when none did). */
  readonly limit: string;
}

/** One unit's job: its id, or the limit that refused it. */
export async function sendOneWithinRoom(send: () => Promise<string>): Promise<string | { readonly limit: string }> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof SubmitLimitError)) throw err;
    return { limit: err.limit };
  }
}

/**
 * A chunk of units sharing `spec`'s options, sent by `send`. Refused for a
 * submit limit, the chunk is sized to the room left less one (the wake must
 * still fit) and sent again once; what does not fit waits. An unknown room
 * sends nothing more this pass.
 */
export async function sendWithinRoom(
  compute: Compute,
  chunk: readonly DispatchUnit[],
  spec: JobSpec,
  send: (units: readonly DispatchUnit[]) => Promise<Map<DispatchUnit, string>>,
): Promise<Sent> {
  try {
    return { jobs: await send(chunk), waiting: [], limit: "" };
  } catch (err) {
    if (!(err instanceof SubmitLimitError)) throw err;
    let room: number | null = null;
    let limit = err.limit;
    try {
      const r = await compute.submitRoom(spec);
      if (r !== null) {
        room = r.jobs;
        limit = r.limit;
      }
    } catch {
      // unknown room: submit nothing more this pass
    }
    const fit = room === null ? 0 : Math.min(chunk.length - 1, room - 1);
    if (fit < 1) return { jobs: new Map(), waiting: [...chunk], limit };
    try {
      return { jobs: await send(chunk.slice(0, fit)), waiting: chunk.slice(fit), limit };
    } catch (again) {
      if (!(again instanceof SubmitLimitError)) throw again;
      return { jobs: new Map(), waiting: [...chunk], limit: again.limit };
    }
  }
}
