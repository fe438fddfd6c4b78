import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Compute, LiveJob } from "../../src/compute/compute.ts";
import { type JobSpec, withDefaults } from "../../src/compute/job_spec.ts";
import { SlurmQueryError } from "../../src/compute/errors.ts";
import { GONE } from "../../src/compute/states.ts";
import type { JobUsage } from "../../src/compute/usage.ts";

/**
 * A scripted Compute: every verb is recorded in `calls`; the queue listing,
 * states and what a submit does are set by the test.
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
  #next = 1000;

  async submit(spec: JobSpec): Promise<string> {
    this.calls.push("sbatch");
    this.submitted.push(spec);
    const id = String(this.#next++);
    this.submittedIds.push(id);
    this.onSubmit(spec, id);
    return id;
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
        ids.map((id) => ({
          id,
          name,
          state: "PENDING",
          reason: "",
          partition: "",
          script: this.submitted[this.submittedIds.indexOf(id)]?.script ?? "",
          ...this.liveStates.get(id),
        })),
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
    const ids = new Set(this.submitted.flatMap((s, i) => (s.jobName === name ? [this.submittedIds[i]!] : [])));
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
