import { rmSync, statSync } from "node:fs";
import { taskRef } from "../compute/array.ts";
import { SlurmQueryError } from "../compute/errors.ts";
import { type ArrayManifest, markArrayJob } from "../dispatch/array_job.ts";
import { log } from "../log.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import { arrayJobName } from "./identity.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { unitWords } from "./unit_words.ts";

/**
 * Crash recovery: a pass that died after an sbatch and before recording its
 * id (or between the pair job's marker writes, or between an array's
 * manifest and its record) left a job the next pass must adopt, never
 * submit again. The reference's residual — a submitter that died between
 * sbatch and the marker write, whose orphan then died without a result,
 * redispatched once — is closed here: that orphan is found by name.
 */

/** A lookup by name for an earlier attempt's job reaches this far before its job script was written. */
const ADOPT_MARGIN_MS = 60_000;

/** The array (and index) whose manifest holds `u`'s job script, newest first; null when none does. */
export function taskOf(
  ctx: MeasurerContext,
  u: DispatchUnit,
): { readonly array: ArrayManifest; readonly index: number } | null {
  const script = ctx.unitScript(u);
  for (let i = ctx.arrays.length - 1; i >= 0; i--) {
    const index = ctx.arrays[i]!.scripts.indexOf(script);
    if (index >= 0) return { array: ctx.arrays[i]!, index };
  }
  return null;
}

/**
 * The job an earlier, unrecorded dispatch of `u` submitted, now recorded as
 * its marker; null when there was no earlier dispatch (no job script) or it
 * submitted nothing; "unknown" when the scheduler cannot say. A job set
 * aside (sent again, or forgotten: attempts.ts) is never adopted.
 */
export async function earlierJob(ctx: MeasurerContext, u: DispatchUnit): Promise<string | null | "unknown"> {
  const aside = ctx.setAside(u);
  const task = taskOf(ctx, u);
  if (task !== null) {
    // in an array's manifest: its task, once the array is known to have been submitted
    const arrayId = await arraySubmitted(ctx, task.array);
    if (arrayId === "unknown") return "unknown";
    const ref = arrayId === null ? null : taskRef(arrayId, task.index);
    if (ref !== null && !aside.has(ref)) {
      ctx.mark(u, ref);
      return ref;
    }
  }
  if (u.mode !== "one") {
    // a pass that died between the pair job's marker writes left its id beside some of its measures
    const known = u.members.map((m) => ctx.dir(m).marker).find((id) => id !== "" && !aside.has(id));
    if (known !== undefined) {
      ctx.mark(u, known);
      return known;
    }
  }
  let written: number;
  try {
    written = statSync(ctx.unitScript(u)).mtimeMs;
  } catch {
    return null;
  }
  let ids: string[];
  try {
    ids = await ctx.o.compute.findSubmitted(ctx.unitJobName(u), new Date(written - ADOPT_MARGIN_MS));
  } catch (err) {
    if (!(err instanceof SlurmQueryError)) throw err;
    log.warn(`cannot tell whether ${unitWords(u)} was submitted before, re-checking on the next pass: ${err.message}`);
    return "unknown";
  }
  const jobId = ids.find((id) => !aside.has(id));
  if (jobId === undefined) return null;
  ctx.mark(u, jobId);
  log.warn(`${unitWords(u)} was submitted as job ${jobId} by a pass that did not record it: using that job`);
  return jobId;
}

/**
 * The id of an array whose manifest was written: recorded, or — when a pass
 * died before recording it — found by its name (and then recorded); null
 * when it was never submitted (the stale manifest is then removed, so its
 * units go out afresh), "unknown" when the scheduler cannot say.
 */
async function arraySubmitted(ctx: MeasurerContext, a: ArrayManifest): Promise<string | null | "unknown"> {
  if (a.submitted !== null) return a.submitted;
  let ids: string[];
  try {
    ids = await ctx.o.compute.findSubmitted(
      arrayJobName(ctx.o.runTag, a.hash),
      new Date(a.writtenMs - ADOPT_MARGIN_MS),
    );
  } catch (err) {
    if (!(err instanceof SlurmQueryError)) throw err;
    log.warn(`cannot tell whether the array of ${a.dir} was submitted, re-checking on the next pass: ${err.message}`);
    return "unknown";
  }
  const arrayId = ids[0];
  if (arrayId === undefined) {
    rmSync(a.dir, { recursive: true, force: true });
    ctx.arrays = ctx.arrays.filter((x) => x.dir !== a.dir);
    return null;
  }
  const marked = markArrayJob(a, arrayId);
  ctx.arrays = [...ctx.arrays.filter((x) => x.dir !== a.dir), marked];
  log.warn(`the array of ${a.dir} was submitted as ${arrayId} by a pass that did not record it: using it`);
  return arrayId;
}
