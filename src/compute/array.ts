/**
 * Job arrays: the pure part. An array of N tasks is one submission with
 * indices 0 … N − 1; its task T of array A is named `A_T` everywhere (squeue
 * `-r` prints it as `%i`, sacct as JobID, scancel and `sacct -j` take it).
 *
 * What Slurm 22.05 does with arrays (probed on the testbed,
 * tests/fixtures/slurm_arrays/): `MaxArraySize` caps the largest INDEX
 * (MaxArraySize − 1), not the count, so more tasks need several arrays, each
 * counting from 0 again; squeue without `-r` collapses pending tasks into one
 * row `A_[2-5%2]`, cut short at 64 bytes unless `SLURM_BITSTR_LEN=0`; sacct
 * keeps one collapsed PENDING row for the tasks that have not started (still
 * naming a task cancelled while pending: it never gets a row of its own); the
 * raw job id equal to A belongs to ONE task, the last to start, not to "the
 * array".
 */

/** Slurm's MaxArraySize when slurm.conf sets none. */
export const DEFAULT_MAX_ARRAY_SIZE = 1001;

/**
 * The sizes of the arrays `n` tasks take when one array may hold at most
 * `maxArraySize` tasks (indices 0 … maxArraySize − 1): full chunks, then the
 * rest; [] for none. Each chunk is its own `submitArray`, its indices
 * restarting at 0, so a caller maps (chunk, index) back to its own units.
 */
export function arrayChunks(n: number, maxArraySize: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Cannot split ${n} tasks into arrays`);
  if (!(maxArraySize === Infinity || (Number.isInteger(maxArraySize) && maxArraySize >= 1))) {
    throw new RangeError(`Not an array size: ${maxArraySize}`);
  }
  const chunks: number[] = [];
  for (let left = n; left > 0; left -= Math.min(left, maxArraySize)) chunks.push(Math.min(left, maxArraySize));
  return chunks;
}

/** The `--array` value for `tasks` tasks, at most `throttle` at once: `0-9%3`. */
export function arrayIndexSpec(tasks: number, throttle?: number): string {
  if (!Number.isInteger(tasks) || tasks < 1) throw new RangeError(`An array needs 1 or more tasks, not ${tasks}`);
  if (throttle !== undefined && (!Number.isInteger(throttle) || throttle < 1)) {
    throw new RangeError(`An array's throttle is 1 or more, not ${throttle}`);
  }
  return `0-${tasks - 1}${throttle === undefined ? "" : `%${throttle}`}`;
}

/** The id of task `task` of array `arrayId`: `A_T`. */
export function taskRef(arrayId: string, task: number): string {
  return `${arrayId}_${task}`;
}

/** A job id or task id, split: `123` → {jobId: "123", task: null}; `123_4` → {jobId: "123", task: 4}. */
export function splitRef(ref: string): { readonly jobId: string; readonly task: number | null } {
  const m = /^([0-9]+)_([0-9]+)$/.exec(ref);
  return m ? { jobId: m[1]!, task: Number(m[2]) } : { jobId: ref, task: null };
}

/**
 * What `sacct -j` is asked for the jobs and tasks `refs`: plain ids as they
 * are, and each array ONCE by its id (one condition for the database however
 * many tasks are asked; sacct then prints every task's own `A_T` row, which
 * the caller keeps for the asked ones only). In first-seen order.
 */
export function sacctSelection(refs: readonly string[]): string[] {
  return [...new Set(refs.map((r) => splitRef(r).jobId))];
}

/**
 * The indices of a collapsed array row's brackets (`2-5%2`, `3-7,9%3`,
 * `1-97:2`, `1,4,9`: ranges, steps, lists, a throttle), or null when the
 * text is not one — e.g. cut short by squeue (no closing bracket).
 */
export function expandIndices(text: string): number[] | null {
  const body = text.replace(/%[0-9]+$/, "");
  if (body === "") return null;
  const out: number[] = [];
  for (const part of body.split(",")) {
    const m = /^([0-9]+)(?:-([0-9]+)(?::([0-9]+))?)?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    const step = m[3] === undefined ? 1 : Number(m[3]);
    if (to < from || step < 1 || (to - from) / step > 1_000_000) return null;
    for (let i = from; i <= to; i += step) out.push(i);
  }
  return out;
}
