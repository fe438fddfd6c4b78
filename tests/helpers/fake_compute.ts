import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { splitRef } from "../../src/compute/array.ts";
import type { Compute, LiveJob, SubmitRoom, SubmitTarget } from "../../src/compute/compute.ts";
import { type JobSpec, withDefaults } from "../../src/compute/job_spec.ts";
import { SlurmQueryError, SubmitLimitError } from "../../src/compute/errors.ts";
import { GONE } from "../../src/compute/states.ts";
import type { JobUsage } from "../../src/compute/usage.ts";

/**
 * A scripted Compute: every verb is recorded in `calls`; the queue listing,
 * states and what a submit does are set by the test. Arrays: `submitArray`
 * records in `arrays` (and, like a job, in `submitted`), ids in `live`,
 * `liveStates`, `states` and `usages` may be tasks' `A_T`.
 */
export class FakeCompute implements Compute {
  calls: string[] = [];
  submitted: JobSpec[] = [];
  /** The id each of `submitted` got, in order. */
  submittedIds: string[] = [];
  /** name → ids the queue lists; `null` makes the listing fail. */
  live: Map<string, string[]> | null = new Map();
  /**
   * id → the state, reason, partition and script the listing shows for it;
   * default PENDING, no reason, and the script it was submitted with ("" for
   * an id this fake did not submit).
   */
  liveStates = new Map<string, { state: string; reason: string; partition?: string; script?: string }>();
  /** id → state sacct reports; `null` makes sacct fail. */
  states: Map<string, string> | null = new Map();
  /** Called inside submit (e.g. to finish the job synchronously). */
  onSubmit: (spec: JobSpec, jobId: string) => void = () => {};
  /** When set, submit and submitArray are refused by this submit limit (a SubmitLimitError), recording nothing. */
  submitLimit: string | null = null;
  /** Every array submitted, in order, with the id it got. */
  arrays: { spec: JobSpec; tasks: number; throttle: number | undefined; id: string }[] = [];
  /** Called inside submitArray (e.g. to finish its tasks). */
  onSubmitArray: (spec: JobSpec, arrayId: string, tasks: number) => void = () => {};
  /** What maxArraySize answers. */
  maxArray = 1001;
  /** What submitRoom answers (an Error: it rejects with it); `roomAsked` records each target. */
  room: SubmitRoom | null | Error = null;
  roomAsked: SubmitTarget[] = [];
  #next = 1000;

  async submit(spec: JobSpec): Promise<string> {
    this.calls.push("sbatch");
    if (this.submitLimit !== null) throw new SubmitLimitError(`sbatch refused: ${this.submitLimit}`, this.submitLimit);
    this.submitted.push(spec);
    const id = String(this.#next++);
    this.submittedIds.push(id);
    this.onSubmit(spec, id);
    return id;
  }
  async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    this.calls.push("sbatch --array");
    if (this.submitLimit !== null) throw new SubmitLimitError(`sbatch refused: ${this.submitLimit}`, this.submitLimit);
    const id = String(this.#next++);
    this.arrays.push({ spec, tasks, throttle, id });
    // an outerloop array's tasks run the job scripts of its manifest (dispatch/array_job.ts): each task is
    // recorded in `submitted` as one submission of its own script, id `A_T`, and `onSubmit` sees it so
    const script = withDefaults(spec).script;
    const manifest = script ? join(dirname(script), "manifest") : "";
    const lines = manifest && existsSync(manifest) ? readFileSync(manifest, "utf8").split("\n").filter(Boolean) : [];
    if (lines.length === 0) {
      this.submitted.push(spec);
      this.submittedIds.push(id);
    }
    lines.slice(0, tasks).forEach((taskScript, t) => {
      const task = { ...spec, script: taskScript };
      this.submitted.push(task);
      this.submittedIds.push(`${id}_${t}`);
      this.onSubmit(task, `${id}_${t}`);
    });
    this.onSubmitArray(spec, id, tasks);
    return id;
  }

  async maxArraySize(): Promise<number> {
    this.calls.push("scontrol show config");
    return this.maxArray;
  }
  async submitRoom(target: SubmitTarget): Promise<SubmitRoom | null> {
    this.calls.push("room");
    this.roomAsked.push(target);
    if (this.room instanceof Error) throw this.room;
    return this.room;
  }
  async status(jobId: string): Promise<string> {
    this.calls.push("sacct");
    if (this.states === null) throw new Error("sacct failed");
    return this.states.get(jobId) ?? GONE;
  }
  async statuses(jobIds: readonly string[]): Promise<Map<string, string>> {
    this.calls.push("sacct");
    if (this.states === null) throw new Error("sacct failed");
    const states = this.states;
    return new Map(jobIds.filter((id) => states.has(id)).map((id) => [id, states.get(id)!]));
  }
  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    this.calls.push("squeue");
    if (this.live === null) throw new Error("squeue failed");
    const jobs = new Map<string, LiveJob[]>();
    for (const [name, ids] of this.live) {
      jobs.set(
        name,
        ids.map((id) => {
          const { jobId, task } = splitRef(id);
          return {
            id,
            arrayId: task === null ? null : jobId,
            taskId: task,
            name,
            state: "PENDING",
            reason: "",
            partition: "",
            script: (this.submitted[this.submittedIds.indexOf(id)] ?? this.submitted[this.submittedIds.indexOf(jobId)])
              ?.script ?? "",
            ...this.liveStates.get(id),
          };
        }),
      );
    }
    return jobs;
  }
  async jobIdForName(name: string): Promise<string> {
    this.calls.push("squeue");
    if (this.live === null) throw new Error("squeue failed");
    return this.live.get(name)?.[0] ?? "";
  }
  async activeJobNames(): Promise<string[]> {
    this.calls.push("squeue");
    return [...(this.live ?? new Map()).keys()];
  }
  /** Every job ever submitted with that name (the fake has no clock), plus live ones; `findFails` makes it fail. */
  findFails = false;
  async findSubmitted(name: string): Promise<string[]> {
    this.calls.push("find");
    if (this.findFails) throw new SlurmQueryError("squeue failed");
    // an array is found by its array id, as Slurm's listing of a name gives it, never task by task
    const ids = new Set(
      this.submitted.flatMap((s, i) => (s.jobName === name ? [splitRef(this.submittedIds[i]!).jobId] : [])),
    );
    for (const id of this.live?.get(name) ?? []) ids.add(id);
    return [...ids].sort();
  }
  async elapsedSeconds(): Promise<number | null> {
    return null;
  }
  async pendingReason(jobId: string): Promise<string> {
    this.calls.push("squeue");
    return this.liveStates.get(jobId)?.reason ?? "";
  }
  async jobPartition(jobId: string): Promise<string> {
    this.calls.push("squeue");
    return this.liveStates.get(jobId)?.partition ?? "";
  }
  async cancel(_jobId: string): Promise<void> {}
  /** Every id given to `cancelMany`, one array per call. */
  cancelled: string[][] = [];
  /** What `cancelMany` does besides recording (e.g. drop the jobs from `live`). */
  onCancel: (jobIds: readonly string[]) => void = () => {};
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    this.calls.push("scancel");
    this.cancelled.push([...jobIds]);
    // the queue no longer lists them
    for (const [name, ids] of this.live ?? []) {
      const left = ids.filter((id) => !jobIds.includes(id));
      if (left.length > 0) this.live!.set(name, left);
      else this.live!.delete(name);
    }
    this.onCancel(jobIds);
  }
  /** id → what sacct accounts for it; `null` makes the query fail. */
  usages: Map<string, JobUsage> | null = new Map();
  async usage(jobIds: readonly string[]): Promise<Map<string, JobUsage>> {
    this.calls.push("sacct");
    if (this.usages === null) throw new Error("sacct failed");
    const usages = this.usages;
    return new Map(jobIds.filter((id) => usages.has(id)).map((id) => [id, usages.get(id)!]));
  }
}

/** Writes what a finished eval job leaves: a result and, last, its exit code. */
export function finishEvalJob(spec: JobSpec, result: Record<string, unknown> | null, exitCode = 0): void {
  const dir = dirname(withDefaults(spec).script);
  if (result) writeFileSync(join(dir, EVAL_FILES.result), JSON.stringify(result));
  writeFileSync(join(dir, EVAL_FILES.exitCode), String(exitCode));
}
