import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { log } from "../log.ts";
import { spawn, type SpawnOptions, type SpawnResult } from "../runtime/spawn.ts";
import { arrayIndexSpec, taskRef } from "./array.ts";
import { assertJobRef, type Compute, type LiveJob, type SubmitRoom } from "./compute.ts";
import { LocalComputeError } from "./errors.ts";
import { assertOneCommand, type FullJobSpec, type JobSpec, withDefaults } from "./job_spec.ts";
import { jobEnv } from "./job_env.ts";
import { localStateDir, persistState, readState } from "./local_state.ts";
import { GONE } from "./states.ts";
import { elapsedOnly, type JobUsage } from "./usage.ts";

/** Local ids start far above any real Slurm id so the two never mix in a record. */
const LOCAL_JOB_BASE = 9_000_000_000;
const IDS_PER_PROCESS = 1_000_000;

export interface LocalComputeOptions {
  /** A walltime minute in ms; tests shrink it to exercise the kill. Default 60 000. */
  readonly minuteMs?: number;
  /** The environment jobs are filtered from and state root read from; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Between the walltime TERM and the KILL; default 2000 ms. */
  readonly graceMs?: number;
  /** Bound on reading output after the kill; default 10 s. */
  readonly drainMs?: number;
  /** The sequence number before the first job's; a test seam for the exhaustion check. */
  readonly startSeq?: number;
  /** Runs a job's process; default the runtime's `spawn`. */
  readonly spawn?: (opts: SpawnOptions) => Promise<SpawnResult>;
}

/**
 * The same verbs run as subprocesses of this process — synchronously:
 * `submit` resolves with the job already terminal, so a caller that looks for
 * the result after submitting finds it on disk and nothing ever parks. The
 * zero-cluster on-ramp; it runs the identical job scripts the cluster runs.
 *
 * When this process is told to stop (Ctrl-C, TERM, HUP) while a job runs,
 * the job's group gets INT — not TERM, the walltime's (and Slurm's) signal,
 * which an eval job records as exit 143 — and `submit` never resolves: the
 * interrupted measure has no result and no marker, and the next `resume`
 * measures it again.
 *
 * An array (`submitArray`) runs its tasks one after the other, each with
 * `SLURM_ARRAY_JOB_ID` and `SLURM_ARRAY_TASK_ID` (and `SLURM_ARRAY_TASK_COUNT`,
 * `_MIN`, `_MAX`) set as Slurm sets them, each known by its id `A_T`.
 */
export class LocalCompute implements Compute {
  readonly #states = new Map<string, string>();
  readonly #elapsed = new Map<string, number>();
  readonly #limits = new Map<string, number>();
  readonly #minuteMs: number;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #graceMs: number;
  readonly #drainMs: number;
  readonly #spawn: (opts: SpawnOptions) => Promise<SpawnResult>;
  #seq = 0;

  constructor(options: LocalComputeOptions = {}) {
    this.#minuteMs = options.minuteMs ?? 60_000;
    this.#env = options.env ?? process.env;
    this.#graceMs = options.graceMs ?? 2000;
    this.#drainMs = options.drainMs ?? 10_000;
    this.#seq = options.startSeq ?? 0;
    this.#spawn = options.spawn ?? spawn;
  }

  readonly runsOnSubmit = true;

  /** Runs the job to its end; resolves with its id. */
  async submit(spec: JobSpec): Promise<string> {
    assertOneCommand(spec);
    const s = withDefaults(spec);
    const jobId = this.#nextId();
    await this.#run(s, jobId, {}, outputFile(s.output, s.jobName));
    return jobId;
  }

  /**
   * Runs the array's tasks 0 … tasks − 1 one after the other (so a throttle
   * changes nothing), each to its end; resolves with the array id A once the
   * last has ended, its tasks being `A_0` …. `%A`, `%a`, `%j`, `%x` and `%%`
   * in the output path are replaced as Slurm does, so tasks can write apart.
   */
  async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    assertOneCommand(spec);
    arrayIndexSpec(tasks, throttle); // the same checks as Slurm's backend
    const s = withDefaults(spec);
    const arrayId = this.#nextId();
    for (let t = 0; t < tasks; t++) {
      const id = taskRef(arrayId, t);
      const env = {
        SLURM_ARRAY_JOB_ID: arrayId,
        SLURM_ARRAY_TASK_ID: String(t),
        SLURM_ARRAY_TASK_COUNT: String(tasks),
        SLURM_ARRAY_TASK_MIN: "0",
        SLURM_ARRAY_TASK_MAX: String(tasks - 1),
      };
      await this.#run(s, id, env, outputFile(taskOutput(s.output, arrayId, t, id, s.jobName), s.jobName));
    }
    return arrayId;
  }

  /** No cap: an array's tasks run here one by one. */
  async maxArraySize(): Promise<number> {
    return Infinity;
  }

  /** No scheduler, no submit limits. */
  async submitRoom(): Promise<SubmitRoom | null> {
    return null;
  }

  /** Runs one job (or array task) `jobId` to its end and records how it ended. */
  async #run(s: FullJobSpec, jobId: string, extraEnv: Readonly<Record<string, string>>, output: string): Promise<void> {
    const argv = s.script ? ["sh", s.script, ...s.scriptArgs] : ["sh", "-c", s.command];
    let result: SpawnResult;
    try {
      result = await this.#spawn({
        argv,
        // the job's id, which Slurm gives its jobs as SLURM_JOB_ID (not set here: a benchmark may read
        // that as "inside Slurm"): the eval script passes it on as OUTERLOOP_JOB_ID (an array task's A_T)
        env: { ...jobEnv(this.#env), OUTERLOOP_JOB_ID: jobId, ...extraEnv },
        timeoutMs: s.timeMinutes * this.#minuteMs,
        graceMs: this.#graceMs,
        drainMs: this.#drainMs,
        output: { file: output },
        newSession: true, // the walltime kill must take the job's whole tree, as Slurm does
        // our own interrupt is not the job's end: INT tells the eval script to record nothing
        // (TERM, the walltime's signal above and Slurm's, records 143)
        stopSignal: "SIGINT",
      });
    } catch (err) {
      throw new LocalComputeError(`Local job ${s.jobName} failed to start: ${(err as Error).message}`, { cause: err });
    }
    const state = result.timedOut ? "TIMEOUT" : result.exitCode === 0 ? "COMPLETED" : "FAILED";
    this.#record(jobId, state, s.jobName);
    this.#elapsed.set(jobId, Math.round(result.durationMs / 1000));
    this.#limits.set(jobId, (s.timeMinutes * this.#minuteMs) / 1000);
    log.info(`ran ${s.jobName} locally as job ${jobId}: ${state}`);
  }

  /** The terminal state of a job run by this or another process, or GONE. */
  async status(jobId: string): Promise<string> {
    assertJobRef(jobId);
    const mine = this.#states.get(jobId);
    if (mine) return mine;
    const dir = localStateDir(this.#env);
    return (dir && readState(dir, jobId)) || GONE;
  }

  async elapsedSeconds(jobId: string): Promise<number | null> {
    assertJobRef(jobId);
    return this.#elapsed.get(jobId) ?? null;
  }

  async statuses(jobIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const id of jobIds) {
      const state = await this.status(id);
      if (state !== GONE) out.set(id, state);
    }
    return out;
  }

  /** Synchronous jobs are terminal at submit: never pending, never in a partition. */
  async pendingReason(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return "";
  }

  async jobPartition(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return "";
  }

  async activeJobNames(): Promise<string[]> {
    return [];
  }

  /** Synchronous jobs have all ended with their submit: none is ever left to find. */
  async findSubmitted(_name: string, _since: Date): Promise<string[]> {
    return [];
  }

  async jobIdForName(_name: string): Promise<string> {
    return "";
  }

  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    return new Map();
  }

  /** Already terminal; cancelling a finished job is not an error. */
  async cancel(jobId: string): Promise<void> {
    assertJobRef(jobId);
  }

  /** Nothing is ever live here: every job is over when `submit` returns. */
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    jobIds.forEach(assertJobRef);
  }

  /**
   * How long the jobs this process ran took, and the walltime they had;
   * nothing else is measured, and other processes' jobs are absent.
   */
  async usage(jobIds: readonly string[]): Promise<Map<string, JobUsage>> {
    const out = new Map<string, JobUsage>();
    for (const id of jobIds) {
      const elapsed = this.#elapsed.get(id);
      if (elapsed === undefined) continue;
      out.set(id, {
        ...elapsedOnly(id, this.#states.get(id) ?? "", elapsed),
        timelimitS: this.#limits.get(id) ?? null,
      });
    }
    return out;
  }

  #nextId(): string {
    this.#seq += 1;
    // a silent wraparound would let one process read another's state under a reused id
    if (this.#seq >= IDS_PER_PROCESS) {
      throw new LocalComputeError("Local job id space exhausted for this process: start a new process");
    }
    return String(LOCAL_JOB_BASE + (process.pid % 10_000) * IDS_PER_PROCESS + this.#seq);
  }

  #record(jobId: string, state: string, jobName: string): void {
    this.#states.set(jobId, state);
    const dir = localStateDir(this.#env);
    if (!dir) return;
    try {
      persistState(dir, jobId, state);
    } catch (err) {
      log.warn(`local job ${jobName}: state persist failed: ${(err as Error).message}`);
    }
  }
}

/** An array task's output path: Slurm's `%A` (array id), `%a` (index), `%j` (job id), `%x` (name) and `%%`. */
function taskOutput(output: string, arrayId: string, task: number, id: string, jobName: string): string {
  const by: Readonly<Record<string, string>> = { A: arrayId, a: String(task), j: id, x: jobName, "%": "%" };
  return output.replace(/%([Aajx%])/g, (_, c: string) => by[c]!);
}

/** The job's output file, or /dev/null when its directory is missing (the job still runs). */
function outputFile(output: string, jobName: string): string {
  if (!output || output === "/dev/null") return "/dev/null";
  if (existsSync(dirname(output))) return output;
  log.warn(`local job ${jobName}: output directory of ${JSON.stringify(output)} does not exist; output discarded`);
  return "/dev/null";
}
